// The Authorization header of a read (docs/api.md §21): `Bearer <key>` with an API key.
#include "access/ApiKey.hpp"

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using skinpulse::access::Credential;
  const std::string header(reinterpret_cast<const char*>(data), size);
  const Credential parsed = skinpulse::access::parseAuthorization(header);
  if (parsed.kind == Credential::Kind::kNone) __builtin_trap();  // a header was given
  if (parsed.kind == Credential::Kind::kKey) {
    // A key is well formed, of the exact length, and taken from the header unchanged.
    if (!skinpulse::access::isWellFormedApiKey(parsed.key)) __builtin_trap();
    if (parsed.key.size() != skinpulse::access::kApiKeyChars) __builtin_trap();
    if (header.find(parsed.key) == std::string::npos) __builtin_trap();
    if (skinpulse::access::hashApiKey(parsed.key).size() != 64) __builtin_trap();
  } else if (!parsed.key.empty()) {
    __builtin_trap();  // a refused header carries no key
  }
  return 0;
}
