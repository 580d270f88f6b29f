#include "net/RequestHeaders.hpp"

#include <string_view>

namespace skinpulse::net {

namespace {

bool isTokenChar(unsigned char c) {
  if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')) return true;
  return std::string_view("!#$%&'*+-.^_`|~").find(static_cast<char>(c)) != std::string_view::npos;
}

bool isToken(std::string_view text) {
  if (text.empty()) return false;
  for (const char c : text) {
    if (!isTokenChar(static_cast<unsigned char>(c))) return false;
  }
  return true;
}

bool isSafeValue(std::string_view value) {
  return value.find_first_of(std::string_view("\r\n\0", 3)) == std::string_view::npos;
}

bool equalsNoCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    auto lower = [](char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c + 32) : c; };
    if (lower(a[i]) != lower(b[i])) return false;
  }
  return true;
}

bool isFramingHeader(std::string_view name) {
  return equalsNoCase(name, "Content-Length") || equalsNoCase(name, "Transfer-Encoding") ||
         equalsNoCase(name, "Connection");
}

}  // namespace

std::optional<std::string> buildRequestHead(const sdk::HttpRequest& request,
                                            const std::string& authority,
                                            const std::string& user_agent,
                                            Poco::Net::HTTPRequest& out) {
  if (!isToken(request.method)) return "invalid method";
  out.setMethod(request.method);
  bool has_host = false;
  bool has_agent = false;
  bool has_accept_encoding = false;
  for (const auto& [name, value] : request.headers) {
    if (!isToken(name)) return "invalid header name";
    if (!isSafeValue(value)) return "invalid value for header " + name;
    if (isFramingHeader(name)) continue;
    has_host = has_host || equalsNoCase(name, "Host");
    has_agent = has_agent || equalsNoCase(name, "User-Agent");
    has_accept_encoding = has_accept_encoding || equalsNoCase(name, "Accept-Encoding");
    out.add(name, value);
  }
  if (!has_host) out.setHost(authority);
  if (!has_agent) out.set("User-Agent", user_agent);
  if (!has_accept_encoding) out.set("Accept-Encoding", kDefaultAcceptEncoding);
  // One request per connection: the server may then also end a body by closing.
  out.setKeepAlive(false);
  return std::nullopt;
}

}  // namespace skinpulse::net
