#include "common/ValueParsers.hpp"

#include <Poco/Net/IPAddress.h>

#include <algorithm>
#include <arpa/inet.h>
#include <charconv>
#include <netinet/in.h>
#include <string>

namespace skinpulse::common {
namespace {

std::string lower(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

}  // namespace

std::optional<std::int64_t> parseInteger(std::string_view text) {
  if (text.empty() || text.front() == '+') return std::nullopt;
  std::int64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

std::optional<bool> parseBoolean(std::string_view text) {
  const std::string value = lower(text);
  if (value == "true" || value == "yes" || value == "on" || value == "1") return true;
  if (value == "false" || value == "no" || value == "off" || value == "0") return false;
  return std::nullopt;
}

std::optional<std::pair<std::string, std::uint16_t>> parseListenAddress(std::string_view text) {
  // inet_pton reads up to a NUL: "[::f\0junk]:1" would pass as "::f" with the junk kept in
  // the host (found by tests/fuzz listen_address). Only address characters get that far.
  if (text.find_first_not_of("0123456789abcdefABCDEFlocahstLOCAHST.:[]") != text.npos) {
    return std::nullopt;
  }
  std::string host;
  std::string_view port;
  if (!text.empty() && text.front() == '[') {
    // "[v6]:port": the brackets keep the address's colons apart from the port's.
    const auto close = text.find(']');
    if (close == std::string_view::npos || text.substr(close, 2) != "]:") return std::nullopt;
    host = std::string(text.substr(1, close - 1));
    port = text.substr(close + 2);
    // inet_pton, not Poco: Poco's parser refuses the unspecified address "::" (it cannot
    // tell it from its own "no address"), which is the dual-stack wildcard wanted here.
    in6_addr address{};
    if (::inet_pton(AF_INET6, host.c_str(), &address) != 1) return std::nullopt;
  } else {
    const auto colon = text.rfind(':');
    if (colon == std::string_view::npos || text.find(':') != colon) return std::nullopt;
    host = std::string(text.substr(0, colon));
    port = text.substr(colon + 1);
    in_addr address{};
    if (host != "localhost" && ::inet_pton(AF_INET, host.c_str(), &address) != 1) {
      return std::nullopt;
    }
  }
  const auto number = parseInteger(port);
  if (!number || *number < 0 || *number > 65535) return std::nullopt;
  return std::make_pair(std::move(host), static_cast<std::uint16_t>(*number));
}

std::vector<std::string> splitList(std::string_view text) {
  std::vector<std::string> items;
  while (!text.empty()) {
    const auto comma = text.find(',');
    const auto item = trim(text.substr(0, comma));
    if (!item.empty()) items.emplace_back(item);
    if (comma == std::string_view::npos) break;
    text.remove_prefix(comma + 1);
  }
  return items;
}

bool isHttpUrl(std::string_view text) {
  for (std::string_view scheme : {"http://", "https://"}) {
    if (text.substr(0, scheme.size()) == scheme && text.size() > scheme.size() &&
        text.find_first_of(" \t\r\n") == std::string_view::npos) {
      return true;
    }
  }
  return false;
}

bool isSupportedDatabaseUrl(std::string_view text) {
  if (text.substr(0, 9) == "sqlite://") return text.size() > 9;
  if (text.substr(0, 13) == "postgresql://") return text.find('/', 13) != std::string_view::npos;
  return false;
}

bool isValidCidr(std::string_view text) {
  const auto slash = text.find('/');
  Poco::Net::IPAddress address;
  if (!Poco::Net::IPAddress::tryParse(std::string(text.substr(0, slash)), address)) return false;
  if (slash == std::string_view::npos) return true;
  const auto bits = parseInteger(text.substr(slash + 1));
  const int max = address.family() == Poco::Net::IPAddress::IPv4 ? 32 : 128;
  return bits && *bits >= 0 && *bits <= max;
}

bool isValidInstanceName(std::string_view text) {
  return !text.empty() && text.size() <= 64 && std::all_of(text.begin(), text.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
  });
}

}  // namespace skinpulse::common
