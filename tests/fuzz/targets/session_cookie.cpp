// The session cookie value a browser sends back: base64url(id) "." base64url(tag).
#include "auth/SessionCookie.hpp"

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const skinpulse::auth::SessionCookie cookie("fuzzing-secret-0123456789abcdef-0123456789");
  const std::string value(reinterpret_cast<const char*>(data), size);
  if (const auto id = cookie.verify(value)) {
    // Only a value we signed verifies: forging one means the HMAC check is broken.
    if (cookie.sign(*id) != value) __builtin_trap();
  }
  return 0;
}
