#include "net/HttpUrl.hpp"

#include <charconv>

namespace skinpulse::net {

namespace {

char asciiLower(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c + 32) : c; }

bool startsWithNoCase(std::string_view text, std::string_view prefix) {
  if (text.size() < prefix.size()) return false;
  for (std::size_t i = 0; i < prefix.size(); ++i) {
    if (asciiLower(text[i]) != prefix[i]) return false;
  }
  return true;
}

bool isSpaceOrControl(unsigned char c) { return c <= 0x20 || c == 0x7F; }

/// Splits "scheme://rest" into the scheme's flag and "rest"; false for other schemes.
bool splitScheme(std::string_view url, bool& secure, std::string_view& rest) {
  if (startsWithNoCase(url, "https://")) {
    secure = true;
    rest = url.substr(8);
    return true;
  }
  if (startsWithNoCase(url, "http://")) {
    secure = false;
    rest = url.substr(7);
    return true;
  }
  return false;
}

bool parsePort(std::string_view text, std::uint16_t& port) {
  unsigned value = 0;
  const auto* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (text.empty() || ec != std::errc() || ptr != end || value == 0 || value > 65535) {
    return false;
  }
  port = static_cast<std::uint16_t>(value);
  return true;
}

bool parseAuthority(std::string_view authority, HttpUrl& url) {
  if (authority.empty() || authority.find('@') != std::string_view::npos) return false;
  std::string_view host = authority;
  std::string_view port;
  if (authority.front() == '[') {
    const auto close = authority.find(']');
    if (close == std::string_view::npos || close == 1) return false;
    host = authority.substr(1, close - 1);
    const auto after = authority.substr(close + 1);
    if (!after.empty()) {
      if (after.front() != ':') return false;
      port = after.substr(1);
    }
  } else {
    const auto colon = authority.find(':');
    if (colon != std::string_view::npos) {
      host = authority.substr(0, colon);
      port = authority.substr(colon + 1);
    }
  }
  if (host.empty()) return false;
  url.host = std::string(host);
  url.authority = std::string(authority);
  if (port.empty()) {
    url.port = url.secure ? 443 : 80;
    return authority.back() != ':';
  }
  return parsePort(port, url.port);
}

}  // namespace

std::optional<HttpUrl> parseHttpUrl(std::string_view text) {
  HttpUrl url;
  std::string_view rest;
  if (!splitScheme(text, url.secure, rest)) return std::nullopt;
  for (const char c : rest) {
    if (isSpaceOrControl(static_cast<unsigned char>(c))) return std::nullopt;
  }
  const auto authority_end = rest.find_first_of("/?#");
  if (!parseAuthority(rest.substr(0, authority_end), url)) return std::nullopt;

  std::string_view target =
      authority_end == std::string_view::npos ? std::string_view() : rest.substr(authority_end);
  target = target.substr(0, target.find('#'));
  if (target.empty() || target.front() != '/') url.target = "/";
  static constexpr char kHex[] = "0123456789ABCDEF";
  for (const char ch : target) {
    const auto c = static_cast<unsigned char>(ch);
    if (c >= 0x80) {
      url.target.push_back('%');
      url.target.push_back(kHex[c >> 4]);
      url.target.push_back(kHex[c & 0x0F]);
    } else {
      url.target.push_back(ch);
    }
  }
  return url;
}

std::string redactUrl(std::string_view url) {
  std::string_view kept = url.substr(0, url.find_first_of("?#"));
  // User info sits between "//" and the first '@' of the authority.
  const auto scheme_end = kept.find("://");
  if (scheme_end == std::string_view::npos) return std::string(kept);
  const auto authority_begin = scheme_end + 3;
  const auto authority_end = kept.find('/', authority_begin);
  const auto at = kept.substr(0, authority_end).rfind('@');
  if (at == std::string_view::npos || at < authority_begin) return std::string(kept);
  std::string out(kept.substr(0, authority_begin));
  out += kept.substr(at + 1);
  return out;
}

std::string redactQueryIn(std::string text, std::string_view url) {
  const auto question = url.find('?');
  if (question == std::string_view::npos) return text;
  const auto query = url.substr(question + 1, url.find('#', question) - question - 1);
  if (query.empty()) return text;
  static constexpr std::string_view kMark = "<redacted>";
  for (auto at = text.find(query); at != std::string::npos; at = text.find(query, at)) {
    text.replace(at, query.size(), kMark);
    at += kMark.size();
  }
  return text;
}

}  // namespace skinpulse::net
