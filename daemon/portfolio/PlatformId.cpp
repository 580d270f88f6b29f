#include "portfolio/PlatformId.hpp"

namespace skinpulse::portfolio {

bool isValidPlatformId(std::string_view id) {
  if (id.size() != 17) return false;
  std::uint64_t value = 0;
  for (const char c : id) {
    if (c < '0' || c > '9') return false;
    value = value * 10 + static_cast<std::uint64_t>(c - '0');  // 17 digits fit in 64 bits
  }
  return value >= kFirstIndividualId && value <= kLastIndividualId;
}

}  // namespace skinpulse::portfolio
