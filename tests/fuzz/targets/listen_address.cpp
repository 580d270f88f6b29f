// `[daemon] listen` and `[admin] listen` (common/ValueParsers parseListenAddress),
// "[::]:8080" among them.
#include "common/ValueParsers.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const auto parsed = skinpulse::common::parseListenAddress(text);
  if (!parsed) return 0;
  const auto& [host, port] = *parsed;
  // A host, never its brackets; written back, the same address and port parse again.
  if (host.empty() || host.find_first_of("[] \t\r\n") != std::string::npos) __builtin_trap();
  const bool v6 = host.find(':') != std::string::npos;
  const std::string again = (v6 ? "[" + host + "]" : host) + ":" + std::to_string(port);
  if (skinpulse::common::parseListenAddress(again) != parsed) __builtin_trap();
  return 0;
}
