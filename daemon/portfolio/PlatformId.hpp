#pragma once

// The game-platform account id (SteamID64) that an inventory import may ask for
// (decisions.md §6): exactly 17 ASCII digits inside the individual-account range. It is
// checked before any call to the platform, so a forged or stale link never reaches it.

#include <cstdint>
#include <string_view>

namespace skinpulse::portfolio {

/// The individual-account range: universe 1 (public), account type 1 (individual),
/// instance 1, account numbers 1 .. 2^32-1.
constexpr std::uint64_t kFirstIndividualId = UINT64_C(76561197960265729);
constexpr std::uint64_t kLastIndividualId = UINT64_C(76561202255233023);

/// True when `id` is 17 digits (no sign, space or other character) within
/// [kFirstIndividualId, kLastIndividualId].
bool isValidPlatformId(std::string_view id);

}  // namespace skinpulse::portfolio
