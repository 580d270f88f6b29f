// URLs from configuration and upstream redirects, and the redaction of their secrets
// before anything is logged.
#include "net/HttpUrl.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view url(reinterpret_cast<const char*>(data), size);
  (void)skinpulse::net::parseHttpUrl(url);
  (void)skinpulse::net::redactUrl(url);
  (void)skinpulse::net::redactQueryIn("GET " + std::string(url) + " failed", url);
  return 0;
}
