#pragma once

// The claimed-ID rules of docs/api.md §5, applied to the exact bytes
// of openid.claimed_id: https scheme, host exactly {gameid_host}, path exactly
// /openid/id/<platform_id64>, <platform_id64> 17 ASCII digits inside the individual-account
// range of docs/api.md §6. Nothing else may appear: no userinfo, no port, no trailing
// slash, no extra segment, no query, no fragment, no percent-escape, no case variant.
// Comparing the whole string with the one shape it may have is what defeats look-alike
// hosts (steamcommunity.com.evil.example, evil.example/steamcommunity.com/...) and
// encoding tricks; nothing is decoded or normalised first.

#include <optional>
#include <string>
#include <string_view>

namespace skinpulse::plugins::openid2 {

/// The individual-account range of 64-bit platform ids (docs/api.md §6).
inline constexpr unsigned long long kFirstIndividualId = 76561197960265729ULL;
inline constexpr unsigned long long kLastIndividualId = 76561202255233023ULL;

/// The platform id64 of `claimed_id` when it obeys every rule for `host`, else nullopt.
std::optional<std::string> platformIdOf(std::string_view claimed_id, std::string_view host);

/// 17 ASCII digits within [kFirstIndividualId, kLastIndividualId].
bool isIndividualPlatformId(std::string_view digits);

}  // namespace skinpulse::plugins::openid2
