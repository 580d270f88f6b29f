#pragma once

// WebModule: the dashboard (docs/api.md §9). The single-page app's paths answer
// index.html, `/assets/<path>` the files beside it; HTML carries the Content-Security-
// Policy of §10 (and HSTS when BASE_URL is https). `[dashboard] enabled = false`
// registers nothing, so every such path stays a 404 not_found problem.

#include "module/Module.hpp"
#include "web/StaticFiles.hpp"

#include <filesystem>
#include <string>
#include <vector>

namespace skinpulse::web {

struct WebOptions {
  bool enabled = true;         ///< [dashboard] enabled
  std::filesystem::path root;  ///< share/www (installed /usr/share/skinpulse/www)
  bool https = false;          ///< BASE_URL is https: add Strict-Transport-Security
  /// Enabled identity providers ("idp-a", "gameid"): written into index.html's
  /// <meta name="skinpulse-providers"> so the sign-in buttons need no signed-in request.
  std::vector<std::string> providers;
  /// Development mode is on ([dev] enabled): written into <meta name="skinpulse-dev"> so
  /// the Portfolio page offers the development sign-in.
  bool dev_mode = false;
};

/// The policy of §10, sent with every HTML response.
inline constexpr const char* kContentSecurityPolicy =
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' https: data:; "
    "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; "
    "form-action 'self'";

class WebModule final : public module::Module {
 public:
  explicit WebModule(WebOptions options);

  std::string_view name() const override { return "web"; }
  void registerRoutes(http::Router& router) override;

  /// index.html for an app path.
  void page(http::Request& request, http::Response& response) const;
  /// A file under the root for /assets/<path>.
  void asset(http::Request& request, http::Response& response) const;

 private:
  void decorate(http::Response& response) const;
  /// index.html with the providers filled in.
  std::string personalise(std::string_view html) const;

  WebOptions options_;
  StaticFiles files_;
};

}  // namespace skinpulse::web
