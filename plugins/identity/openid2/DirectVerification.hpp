#pragma once

// check_authentication (OpenID 2.0 §11.4.2): the OP itself confirms its signature. The
// POST carries every openid.* field of the assertion exactly as received, openid.ns
// included, with only openid.mode changed; generic OPs sign more fields than the game
// platform, and dropping or re-ordering one would make a valid assertion fail.

#include "skinpulse/sdk/host.hpp"
#include "skinpulse/sdk/identity.hpp"

#include "OpenId2Settings.hpp"

#include <optional>

namespace skinpulse::plugins::openid2 {

/// The request verify() sends; exposed so tests can check the body byte for byte.
sdk::HttpRequest checkAuthenticationRequest(const OpenId2Settings& settings,
                                            const sdk::Fields& openid_fields);

/// Nullopt when the OP answers 200 with `ns` 2.0 and `is_valid:true`; otherwise the refusal:
/// provider_error when the OP could not be asked (transport, non-200: the game platform
/// answers 403/429 when it throttles), verification_failed when it said no.
std::optional<sdk::VerifiedIdentity> verify(sdk::HttpClient& http, const OpenId2Settings& settings,
                                            const sdk::Fields& openid_fields);

}  // namespace skinpulse::plugins::openid2
