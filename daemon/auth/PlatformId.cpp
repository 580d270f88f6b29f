#include "auth/PlatformId.hpp"

#include <algorithm>
#include <cstdint>
#include <string>

namespace skinpulse::auth {

bool isIndividualPlatformId(std::string_view id) {
  constexpr std::uint64_t kFirst = 76561197960265729ULL;
  constexpr std::uint64_t kLast = 76561202255233023ULL;
  if (id.size() != 17 ||
      !std::all_of(id.begin(), id.end(), [](char c) { return c >= '0' && c <= '9'; })) {
    return false;
  }
  const std::uint64_t value = std::stoull(std::string(id));
  return value >= kFirst && value <= kLast;
}

}  // namespace skinpulse::auth
