#include "ClaimedId.hpp"

#include <algorithm>

namespace skinpulse::plugins::openid2 {

bool isIndividualPlatformId(std::string_view digits) {
  if (digits.size() != 17) return false;
  if (!std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; })) {
    return false;
  }
  unsigned long long value = 0;
  for (const char c : digits) value = value * 10 + static_cast<unsigned>(c - '0');
  return value >= kFirstIndividualId && value <= kLastIndividualId;
}

std::optional<std::string> platformIdOf(std::string_view claimed_id, std::string_view host) {
  const std::string prefix = "https://" + std::string(host) + "/openid/id/";
  if (host.empty() || claimed_id.size() != prefix.size() + 17) return std::nullopt;
  if (claimed_id.substr(0, prefix.size()) != prefix) return std::nullopt;
  const std::string_view digits = claimed_id.substr(prefix.size());
  if (!isIndividualPlatformId(digits)) return std::nullopt;
  return std::string(digits);
}

}  // namespace skinpulse::plugins::openid2
