#pragma once

// BudgetedHttpClient: the HTTP client handed to source plugins. Requests to one upstream
// (the game platform, named by its scheme, host and port) first take a background token
// from the shared RequestBudget, waiting for one at most half the request's timeout
// (the request then gets what is left of it); without one the request is not sent and
// the plugin sees a timeout whose message says why. Every other request passes straight through.

#include "skinpulse/sdk/host.hpp"

#include "net/RequestBudget.hpp"

#include <optional>
#include <string>

namespace skinpulse::net {

class BudgetedHttpClient final : public sdk::HttpClient {
 public:
  /// `upstream_url`: any URL of the budgeted upstream; only its origin is kept.
  BudgetedHttpClient(sdk::HttpClient& inner, RequestBudget& budget,
                     const std::string& upstream_url);

  sdk::HttpResponse send(const sdk::HttpRequest& request) override;
  /// The same budget as send(), then the inner client's stream().
  sdk::HttpResponse stream(const sdk::HttpRequest& request, sdk::BodySink& sink) override;

  /// "https://steamcommunity.com:443" for "https://steamcommunity.com/inventory"; empty
  /// when `url` is not an http(s) URL.
  static std::string originOf(const std::string& url);

 private:
  /// Takes a token for a budgeted request and fills `sent` with what is left of its
  /// timeout; the refusal when none came in time.
  std::optional<sdk::HttpResponse> admit(const sdk::HttpRequest& request, sdk::HttpRequest& sent);

  sdk::HttpClient& inner_;
  RequestBudget& budget_;
  std::string origin_;
};

}  // namespace skinpulse::net
