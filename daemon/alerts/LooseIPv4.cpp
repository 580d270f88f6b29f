#include "alerts/LooseIPv4.hpp"

#include <array>

namespace skinpulse::alerts {
namespace {

// One part: decimal, 0-prefixed octal or 0x-prefixed hexadecimal; at most 32 bits.
std::optional<std::uint64_t> partOf(std::string_view part) {
  if (part.empty()) return std::nullopt;
  unsigned base = 10;
  if (part.size() >= 2 && part[0] == '0' && (part[1] == 'x' || part[1] == 'X')) {
    base = 16;
    part.remove_prefix(2);
    if (part.empty()) return std::nullopt;  // "0x" alone is no number to inet_aton
  } else if (part.size() >= 2 && part[0] == '0') {
    base = 8;
    part.remove_prefix(1);
  }
  std::uint64_t value = 0;
  for (const char c : part) {
    unsigned digit = 0;
    if (c >= '0' && c <= '9') {
      digit = static_cast<unsigned>(c - '0');
    } else if (base == 16 && c >= 'a' && c <= 'f') {
      digit = static_cast<unsigned>(c - 'a' + 10);
    } else if (base == 16 && c >= 'A' && c <= 'F') {
      digit = static_cast<unsigned>(c - 'A' + 10);
    } else {
      return std::nullopt;
    }
    if (digit >= base) return std::nullopt;
    value = value * base + digit;
    if (value > 0xffffffffULL) return std::nullopt;
  }
  return value;
}

}  // namespace

std::optional<std::uint32_t> parseLooseIPv4(std::string_view text) {
  std::array<std::uint64_t, 4> parts{};
  std::size_t count = 0;
  while (true) {
    const auto dot = text.find('.');
    if (count == parts.size()) return std::nullopt;  // a fifth part
    const auto part = partOf(text.substr(0, dot));
    if (!part) return std::nullopt;
    parts[count++] = *part;
    if (dot == std::string_view::npos) break;
    text.remove_prefix(dot + 1);
  }
  // Every part but the last is one byte; the last fills the rest (a.b.c.d, a.b.c16,
  // a.b24, a32).
  std::uint64_t address = 0;
  for (std::size_t i = 0; i + 1 < count; ++i) {
    if (parts[i] > 0xff) return std::nullopt;
    address |= parts[i] << (24 - 8 * i);
  }
  const unsigned last_bits = static_cast<unsigned>(32 - 8 * (count - 1));
  const std::uint64_t last = parts[count - 1];
  if (last_bits < 32 && last >= (std::uint64_t{1} << last_bits)) return std::nullopt;
  return static_cast<std::uint32_t>(address | last);
}

}  // namespace skinpulse::alerts
