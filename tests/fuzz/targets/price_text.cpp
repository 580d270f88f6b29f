// Price strings as markets send them ("$1,234.43", "1.234,43€", "¥ 12") → cents.
#include "ingest/PriceParser.hpp"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  if (const auto cents = skinpulse::ingest::parsePriceText(text)) {
    if (*cents < 0) __builtin_trap();  // a price is never negative
  }
  return 0;
}
