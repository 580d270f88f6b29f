// Entry point of identity_openid2.so; the logic lives in identity_openid2_core.

#include "skinpulse/sdk/plugin.hpp"

#include "OpenId2Provider.hpp"

SKINPULSE_DECLARE_PLUGIN(IdentityProvider, skinpulse::plugins::openid2::OpenId2Provider, "openid2",
                         "1.0.0", "OpenID 2.0 relying party for the game platform (gameid)",
                         skinpulse::plugins::openid2::kConfigKeys)
