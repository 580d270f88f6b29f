// Entry point of identity_oauth2.so; the logic lives in identity_oauth2_core.

#include "skinpulse/sdk/plugin.hpp"

#include "OAuth2Provider.hpp"

SKINPULSE_DECLARE_PLUGIN(IdentityProvider, skinpulse::plugins::oauth2::OAuth2Provider, "oauth2",
                         "1.0.0", "OAuth 2.0 authorization code with PKCE S256 (idp-a, idp-b)",
                         skinpulse::plugins::oauth2::kConfigKeys)
