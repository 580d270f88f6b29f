#pragma once

// Game-platform account ids (docs/api.md §6): 17 decimal digits in the individual-account
// range 76561197960265729..76561202255233023.

#include <string_view>

namespace skinpulse::auth {

bool isIndividualPlatformId(std::string_view id);

}  // namespace skinpulse::auth
