#pragma once

// AuthApi: the authentication endpoints of docs/api.md on the host side.
//
//   GET  /api/v1/auth/csrf                  token (creates an anonymous session if needed)
//   POST /api/v1/auth/logout                RequireAuth + CSRF → 204, cookie cleared
//   GET  /api/v1/auth/providers             RequireAuth → enabled providers, `linked`
//   GET  /api/v1/auth/me                    RequireAuth → the user (extension)
//   GET  /api/v1/auth/{idp-a,idp-b}         start OAuth 2.0 login      (+ /callback)
//   GET  /api/v1/auth/gameid/login          start OpenID 2.0 login     (+ /callback)
//   GET  /api/v1/auth/gameid                RequireAuth: start linking another account
//                                           (callback /api/v1/auth/gameid/callback)
//   DELETE /api/v1/auth/gameid/:platform_id RequireAuth + CSRF → 204: unlinks the account
//                                           with its holdings, one transaction (§23.2)
//   PATCH  /api/v1/auth/gameid/:platform_id RequireAuth + CSRF: {"label":...} → the link
//
// Routes of a provider that is not configured are not registered (404 not_found). The
// protocol work is the plugin's (sdk::IdentityProvider); the host keeps the flow in the
// session, checks replay keys, creates or matches the account (by verified e-mail only;
// gameid by platform id), rotates the session and redirects to FRONTEND_URL, with
// ?auth_error=CODE on failure.

#include "skinpulse/sdk/identity.hpp"

#include "auth/AccountResolver.hpp"
#include "auth/LoginFlows.hpp"
#include "auth/SessionManager.hpp"
#include "http/Router.hpp"
#include "state/SharedStore.hpp"
#include "store/UserStore.hpp"

#include <string>
#include <vector>

namespace skinpulse::auth {

struct AuthApiOptions {
  std::string base_url;      ///< BASE_URL without trailing '/': callback URLs, realm
  std::string frontend_url;  ///< FRONTEND_URL: where the browser goes after a login
  int max_game_accounts = AccountResolver::kDefaultMaxGameAccounts;  ///< [gameid] max_accounts
};

/// One enabled identity provider: its API name and the plugin object serving it.
struct ProviderEntry {
  std::string name;  ///< "idp-a", "idp-b", "gameid"
  sdk::IdentityProvider* provider = nullptr;
};

class AuthApi {
 public:
  AuthApi(const SessionManager& sessions, state::SharedStore& store, store::UserStore& users,
          std::vector<ProviderEntry> providers, AuthApiOptions config);

  void registerRoutes(http::Router& router);

 private:
  enum class Mode { kLogin, kLink };

  void csrf(http::Request& request, http::Response& response) const;
  void logout(http::Request& request, http::Response& response) const;
  void providers(http::Request& request, http::Response& response) const;
  void me(http::Request& request, http::Response& response) const;
  void unlinkGameId(http::Request& request, http::Response& response) const;
  void labelGameId(http::Request& request, http::Response& response) const;
  void begin(const ProviderEntry& entry, Mode mode, const std::string& callback_path,
             http::Request& request, http::Response& response) const;
  void callback(const ProviderEntry& entry, Mode mode, const std::string& callback_path,
                http::Request& request, http::Response& response) const;

  std::string flowName(const ProviderEntry& entry, Mode mode) const;
  void redirect(http::Response& response, const std::string& error_code) const;

  const SessionManager& sessions_;
  state::SharedStore& store_;
  LoginFlows flows_;
  AccountResolver accounts_;
  store::UserStore& users_;
  std::vector<ProviderEntry> providers_;
  AuthApiOptions config_;
};

}  // namespace skinpulse::auth
