// The request target as the server splits it: percent-decoded path, decoded query.
#include "skinpulse/sdk/url_encoding.hpp"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view target(reinterpret_cast<const char*>(data), size);
  const auto question = target.find('?');
  (void)skinpulse::sdk::percentDecode(target.substr(0, question), false);
  if (question != std::string_view::npos) {
    if (const auto fields = skinpulse::sdk::parseQuery(target.substr(question + 1))) {
      // What we decode and encode again decodes to the same fields.
      const auto again = skinpulse::sdk::parseQuery(skinpulse::sdk::encodeQuery(*fields));
      if (!again || *again != *fields) __builtin_trap();
    }
  }
  return 0;
}
