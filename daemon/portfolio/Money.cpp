#include "portfolio/Money.hpp"

#include <cstdint>

namespace skinpulse::portfolio {

std::string Money::major(std::int64_t cents) const {
  const std::int64_t amount = minor(cents);
  // Unsigned magnitude: -INT64_MIN does not fit int64.
  std::uint64_t magnitude =
      amount < 0 ? 0 - static_cast<std::uint64_t>(amount) : static_cast<std::uint64_t>(amount);
  std::uint64_t unit = 1;
  for (int i = 0; i < exponent(); ++i) unit *= 10;
  std::string out = amount < 0 ? "-" : "";
  out += std::to_string(magnitude / unit);
  if (exponent() > 0) {
    std::string fraction = std::to_string(magnitude % unit);
    out += '.';
    out.append(static_cast<std::size_t>(exponent()) - fraction.size(), '0');
    out += fraction;
  }
  return out;
}

}  // namespace skinpulse::portfolio
