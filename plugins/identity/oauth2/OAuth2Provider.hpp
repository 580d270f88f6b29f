#pragma once

// OAuth2Provider: the authorization code grant with PKCE S256 (RFC 6749 §4.1, RFC 7636)
// for one configured provider (idp-a or idp-b, OAuth2Settings).
//
// begin(): a fresh state (256 bits) and code verifier (256 bits) from the host's CSPRNG;
// both go into the flow the host keeps in the session, and only the state and the S256
// challenge go to the browser. complete(): the state must come back exactly once and equal
// the flow's (constant-time), then the code is exchanged with the same redirect_uri and
// the verifier, then the flavour's profile calls run. Every refusal carries a docs/api.md
// §5 code: state_mismatch, provider_error or email_unverified.
//
// Thread safety: no mutable state after construction; begin() and complete() may run
// concurrently.

#include "skinpulse/sdk/host.hpp"
#include "skinpulse/sdk/identity.hpp"

#include "OAuth2Settings.hpp"

#include <string>

namespace skinpulse::plugins::oauth2 {

/// Bytes of randomness in the state and in the code verifier.
inline constexpr std::size_t kRandomBytes = 32;

class OAuth2Provider final : public sdk::IdentityProvider {
 public:
  /// Throws std::invalid_argument when the configuration is unusable.
  explicit OAuth2Provider(sdk::Host& host);

  std::string protocol() const override { return "oauth2"; }
  sdk::AuthorizationStart begin(const sdk::LoginContext& context) override;
  sdk::VerifiedIdentity complete(const sdk::LoginContext& context, const sdk::Fields& params,
                                 const std::string& called_url, const sdk::Fields& flow) override;

 private:
  sdk::Host& host_;
  const OAuth2Settings settings_;
};

}  // namespace skinpulse::plugins::oauth2
