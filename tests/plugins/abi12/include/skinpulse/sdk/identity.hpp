#pragma once

// IdentityProvider: a plugin that signs users in through an external provider
// (OAuth 2.0 authorization code with PKCE, OpenID 2.0, ...).
//
// The host owns sessions, cookies, CSRF and the user database. A login is two calls:
// begin() returns where to send the browser plus the values the host must keep in the
// session for this flow; complete() receives the callback's query parameters and those
// values back, and answers a verified identity or a refusal. The host guarantees that
// `flow` values come from the caller's own session and are single-use.
//
// Thread safety: begin() and complete() may run concurrently on several threads.

#include "skinpulse/sdk/status.hpp"
#include "skinpulse/sdk/types.hpp"

#include <cstdint>
#include <string>

namespace skinpulse::sdk {

/// Per-login context supplied by the host.
struct LoginContext {
  std::string callback_url;  ///< absolute URL of this flow's callback endpoint
  std::string realm;         ///< BASE_URL, for protocols that need one
};

/// Where to redirect the browser, and what to remember until the callback.
struct AuthorizationStart {
  Status status;
  std::string redirect_url;
  Fields flow;  ///< e.g. state, PKCE verifier; stored server-side, never sent to the browser
};

/// A verified identity. `subject` is the provider's stable user id. `email` is set only
/// when the provider asserts it verified.
struct VerifiedIdentity {
  Status status;
  std::string subject;
  std::string email;
  bool email_verified = false;
  std::string display_name;
  std::string avatar_url;
  /// Short machine code for a refusal shown to the user (e.g. "state_mismatch").
  std::string error_code;
  /// Single-use token of this assertion (OpenID 2.0: openid.response_nonce). When set, the
  /// host accepts the identity only if it has not seen this key for this provider within
  /// the last `replay_window_seconds` (atomic set-if-absent in the shared store), and
  /// refuses a replay with "verification_failed".
  std::string replay_key;
  std::int64_t replay_window_seconds = 0;
};

class IdentityProvider {
 public:
  /// "oauth2" or "openid2": shown in GET /api/v1/auth/providers.
  virtual std::string protocol() const = 0;
  virtual AuthorizationStart begin(const LoginContext& context) = 0;
  /// `params` are the callback's query parameters; `called_url` the callback URL exactly
  /// as requested (OpenID 2.0 compares it with return_to).
  virtual VerifiedIdentity complete(const LoginContext& context, const Fields& params,
                                    const std::string& called_url, const Fields& flow) = 0;

 protected:
  virtual ~IdentityProvider() = default;
};

}  // namespace skinpulse::sdk
