#pragma once

// BudgetedHttpClient: the HTTP client handed to source plugins. Requests to one upstream
// (the game platform, named by its scheme, host and port) first take a background token
// from the shared RequestBudget, waiting for one at most half the request's timeout
// (the request then gets what is left of it); without one the request is not sent and
// the plugin sees a timeout whose message says why. Every other request passes straight through.

#include "skinpulse/sdk/host.hpp"

#include "net/RequestBudget.hpp"

#include <string>

namespace skinpulse::net {

class BudgetedHttpClient final : public sdk::HttpClient {
 public:
  /// `upstream_url`: any URL of the budgeted upstream; only its origin is kept.
  BudgetedHttpClient(sdk::HttpClient& inner, RequestBudget& budget,
                     const std::string& upstream_url);

  sdk::HttpResponse send(const sdk::HttpRequest& request) override;

  /// "https://steamcommunity.com:443" for "https://steamcommunity.com/inventory"; empty
  /// when `url` is not an http(s) URL.
  static std::string originOf(const std::string& url);

 private:
  sdk::HttpClient& inner_;
  RequestBudget& budget_;
  std::string origin_;
};

}  // namespace skinpulse::net
