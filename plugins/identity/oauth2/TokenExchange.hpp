#pragma once

// The token request of the authorization code grant (RFC 6749 §4.1.3 + RFC 7636 §4.5):
// one form-encoded POST, no query string, client credentials as form fields.

#include "skinpulse/sdk/host.hpp"
#include "skinpulse/sdk/identity.hpp"

#include "OAuth2Settings.hpp"

#include <optional>
#include <string>

namespace skinpulse::plugins::oauth2 {

struct TokenOutcome {
  std::string access_token;                      ///< set on success
  std::optional<sdk::VerifiedIdentity> refusal;  ///< set on failure (provider_error)
};

/// The request exchange() sends; exposed so tests can check it byte for byte.
sdk::HttpRequest tokenRequest(const OAuth2Settings& settings, const std::string& code,
                              const std::string& redirect_uri, const std::string& code_verifier);

/// Sends tokenRequest() through `http` and reads the JSON answer. A provider may answer an
/// error with HTTP 200 and an `error` member (idp-b does), so `error` is checked first.
TokenOutcome exchange(sdk::HttpClient& http, const OAuth2Settings& settings,
                      const std::string& code, const std::string& redirect_uri,
                      const std::string& code_verifier);

}  // namespace skinpulse::plugins::oauth2
