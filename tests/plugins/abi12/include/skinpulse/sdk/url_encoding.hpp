#pragma once

// Percent-encoding for URLs, query strings and application/x-www-form-urlencoded
// bodies, and the reverse. Header-only so that the daemon and every plugin use the same
// bytes: HttpRequest::url must arrive already encoded, and item names such as
// "★ StatTrak™ Karambit | Fade (Factory New)" carry UTF-8, spaces and '&'/'#', each of
// which would otherwise change the URL's meaning. Values are bytes: UTF-8 is taken byte by
// byte, and decoding does not check that the result is UTF-8 (callers that need it do).

#include "skinpulse/sdk/types.hpp"

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace skinpulse::sdk {

namespace url_encoding_detail {

inline bool isUnreserved(unsigned char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' ||
         c == '.' || c == '_' || c == '~';
}

inline int hexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace url_encoding_detail

/// Encodes every byte of `value` except the RFC 3986 unreserved characters
/// A-Z a-z 0-9 - . _ ~ as %XX (upper-case hex). A space becomes %20, never '+', which
/// some servers would keep as a literal plus (form decoders accept %20 for a space).
inline std::string percentEncode(std::string_view value) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  out.reserve(value.size() * 3);
  for (const char ch : value) {
    const auto c = static_cast<unsigned char>(ch);
    if (url_encoding_detail::isUnreserved(c)) {
      out.push_back(ch);
    } else {
      out.push_back('%');
      out.push_back(kHex[c >> 4]);
      out.push_back(kHex[c & 0x0F]);
    }
  }
  return out;
}

/// "name=value&name=value" with names and values percent-encoded, in the given order;
/// empty for no fields. The same text serves as a query string and as a form body.
inline std::string encodeQuery(const Fields& fields) {
  std::string out;
  for (const auto& [name, value] : fields) {
    if (!out.empty()) out.push_back('&');
    out += percentEncode(name);
    out.push_back('=');
    out += percentEncode(value);
  }
  return out;
}

/// Decodes %XX escapes (either hex case) and, when `plus_is_space` (the query and form
/// convention), '+' as a space; a path keeps '+' as is. Nullopt when an escape is
/// truncated or not hexadecimal: a malformed value is refused, never guessed.
inline std::optional<std::string> percentDecode(std::string_view text, bool plus_is_space) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '%') {
      if (i + 2 >= text.size()) return std::nullopt;
      const int high = url_encoding_detail::hexValue(text[i + 1]);
      const int low = url_encoding_detail::hexValue(text[i + 2]);
      if (high < 0 || low < 0) return std::nullopt;
      out.push_back(static_cast<char>(high * 16 + low));
      i += 2;
    } else if (c == '+' && plus_is_space) {
      out.push_back(' ');
    } else {
      out.push_back(c);
    }
  }
  return out;
}

/// Splits a query string or form body (without the '?') into decoded pairs in order,
/// '+' meaning a space. Empty segments (`a=1&&b=2`) are skipped; a segment without '='
/// has an empty value. Nullopt when any escape is malformed.
inline std::optional<Fields> parseQuery(std::string_view query) {
  Fields fields;
  while (!query.empty()) {
    const auto amp = query.find('&');
    const std::string_view segment = query.substr(0, amp);
    query = amp == std::string_view::npos ? std::string_view() : query.substr(amp + 1);
    if (segment.empty()) continue;
    const auto equals = segment.find('=');
    auto name = percentDecode(segment.substr(0, equals), true);
    auto value = percentDecode(
        equals == std::string_view::npos ? std::string_view() : segment.substr(equals + 1), true);
    if (!name || !value) return std::nullopt;
    fields.emplace_back(std::move(*name), std::move(*value));
  }
  return fields;
}

/// `url` followed by `query` after '?' or, when the URL already has a query, '&';
/// `url` unchanged when `query` is empty.
inline std::string appendQuery(const std::string& url, const std::string& query) {
  if (query.empty()) return url;
  const char separator = url.find('?') == std::string::npos ? '?' : '&';
  return url + separator + query;
}

}  // namespace skinpulse::sdk
