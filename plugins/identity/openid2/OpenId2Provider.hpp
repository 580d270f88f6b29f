#pragma once

// OpenId2Provider: an OpenID 2.0 relying party in stateless ("dumb") mode for the game
// platform (docs/api.md §5, docs/upstreams.md §e). No discovery: the OP endpoint and
// the claimed-ID host are configuration, which is what makes claimed IDs unspoofable.
//
// begin(): checkid_setup with identifier_select; return_to is the callback URL plus a
// fresh single-use `state` (256 bits) that the host keeps in the session with return_to.
// complete(): the local checks of Assertion.hpp, then check_authentication, then the
// optional profile lookup. The response nonce goes back as replay_key with a 10-minute
// window: the host refuses a second use.
//
// The plugin does not know login from linking mode; the host decides what the verified
// platform id is used for.
//
// Thread safety: no mutable state after construction.

#include "skinpulse/sdk/host.hpp"
#include "skinpulse/sdk/identity.hpp"

#include "OpenId2Settings.hpp"

#include <string>

namespace skinpulse::plugins::openid2 {

inline constexpr const char* kIdentifierSelect =
    "http://specs.openid.net/auth/2.0/identifier_select";

class OpenId2Provider final : public sdk::IdentityProvider {
 public:
  /// Throws std::invalid_argument when the configuration is unusable.
  explicit OpenId2Provider(sdk::Host& host);

  std::string protocol() const override { return "openid2"; }
  sdk::AuthorizationStart begin(const sdk::LoginContext& context) override;
  sdk::VerifiedIdentity complete(const sdk::LoginContext& context, const sdk::Fields& params,
                                 const std::string& called_url, const sdk::Fields& flow) override;

 private:
  sdk::Host& host_;
  const OpenId2Settings settings_;
};

}  // namespace skinpulse::plugins::openid2
