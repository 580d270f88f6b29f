#include "events/RedisAddress.hpp"

#include <charconv>
#include <stdexcept>
#include <string_view>

namespace skinpulse::events {

RedisAddress parseRedisAddress(const std::string& url) {
  constexpr std::string_view kScheme = "redis://";
  std::string_view rest(url);
  if (rest.substr(0, kScheme.size()) != kScheme) {
    throw std::invalid_argument("redis URL must start with redis://");
  }
  rest.remove_prefix(kScheme.size());
  rest = rest.substr(0, rest.find('/'));
  RedisAddress address;
  const auto at = rest.rfind('@');
  if (at != std::string_view::npos) {
    const auto credentials = rest.substr(0, at);
    const auto colon = credentials.find(':');
    address.user = std::string(credentials.substr(0, colon));
    if (colon != std::string_view::npos) address.password = credentials.substr(colon + 1);
    if (colon == std::string_view::npos) std::swap(address.user, address.password);
    rest.remove_prefix(at + 1);
  }
  const auto colon = rest.rfind(':');
  address.host = std::string(rest.substr(0, colon));
  if (colon != std::string_view::npos) {
    const auto port = rest.substr(colon + 1);
    const auto parsed = std::from_chars(port.data(), port.data() + port.size(), address.port);
    if (parsed.ec != std::errc() || parsed.ptr != port.data() + port.size() || address.port < 1 ||
        address.port > 65535) {
      throw std::invalid_argument("redis URL has an invalid port");
    }
  }
  if (address.host.empty()) throw std::invalid_argument("redis URL has no host");
  return address;
}

}  // namespace skinpulse::events
