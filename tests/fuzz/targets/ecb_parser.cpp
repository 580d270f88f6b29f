// The ECB daily reference-rates XML (plugins/rates/ecb) → USD-based exact fractions.
// Hostile documents must fail cleanly: never a crash, a hang or a bad fraction.
#include "EcbParser.hpp"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view xml(reinterpret_cast<const char*>(data), size);
  const auto document = skinpulse::plugins::ecb::parseEcbDaily(xml, 64 * 1024);
  for (const auto& rate : document.rates) {
    if (rate.numerator <= 0 || rate.denominator <= 0) __builtin_trap();
    if (rate.currency.size() != 3 || rate.currency == "USD") __builtin_trap();
  }
  if (!document.error.empty() && !document.rates.empty()) __builtin_trap();
  return 0;
}
