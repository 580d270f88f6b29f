#pragma once

// The local checks of a positive assertion (docs/api.md §5), everything that can be
// decided without asking the OP. Order: state, then the assertion's own fields, so an
// unsolicited callback is refused before anything it claims is looked at.

#include "skinpulse/sdk/identity.hpp"
#include "skinpulse/sdk/types.hpp"

#include "OpenId2Settings.hpp"

#include <cstdint>
#include <optional>
#include <string>

namespace skinpulse::plugins::openid2 {

/// The flow keys begin() stores and complete() reads.
inline constexpr const char* kStateKey = "state";
inline constexpr const char* kReturnToKey = "return_to";

/// What the checks established about an assertion.
struct CheckedAssertion {
  std::string platform_id;     ///< the 17 digits of the claimed ID
  std::string response_nonce;  ///< for the host's single-use check
  sdk::Fields openid_fields;   ///< every openid.* parameter, in the order received
};

struct AssertionCheck {
  std::optional<CheckedAssertion> assertion;     ///< set when every local check passed
  std::optional<sdk::VerifiedIdentity> refusal;  ///< set otherwise
};

/// The fields an OP must sign for us to rely on them (OpenID 2.0 §10.1).
inline constexpr const char* kMustBeSigned[] = {"op_endpoint",  "return_to",  "response_nonce",
                                                "assoc_handle", "claimed_id", "identity"};

/// Runs every local check on the callback `params` (decoded query), the URL actually
/// called, and the session's `flow`, against `realm` (already ending in '/').
AssertionCheck checkAssertion(const OpenId2Settings& settings, const std::string& realm,
                              const sdk::Fields& params, const std::string& called_url,
                              const sdk::Fields& flow, std::int64_t now_seconds);

/// True when the called URL is return_to with only openid.* parameters added: same base,
/// and its other parameters are exactly return_to's, in the same order (OpenID 2.0 §11.1).
bool calledUrlMatchesReturnTo(const std::string& called_url, const std::string& return_to);

}  // namespace skinpulse::plugins::openid2
