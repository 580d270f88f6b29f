#pragma once

// The pieces of an absolute http(s) URL the client needs, split without decoding anything:
// Poco::URI decodes the path and re-encodes it differently (%2F becomes '/'), which would
// change what upstreams see. Also the one place that knows how to print a URL safely.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace skinpulse::net {

struct HttpUrl {
  bool secure = false;     ///< https
  std::string host;        ///< without brackets for IPv6 literals
  std::uint16_t port = 0;  ///< explicit or the scheme's default
  std::string authority;   ///< host[:port] exactly as written: the Host header
  std::string target;      ///< path and query as sent in the request line; never empty
};

/// Parses `url`; empty optional when it is not an absolute http:// or https:// URL, has
/// user info (credentials have no business in a URL we may log), or contains spaces or
/// control characters (request-line injection). Bytes >= 0x80 are percent-encoded, the
/// fragment is dropped.
std::optional<HttpUrl> parseHttpUrl(std::string_view url);

/// `url` without its user info, query and fragment, for error messages and logs: query
/// strings carry API keys.
std::string redactUrl(std::string_view url);

/// `text` with every occurrence of `url`'s query string replaced by "<redacted>": for
/// messages from libraries, which do not quote URLs today, but an API key in a log line
/// is not worth the bet.
std::string redactQueryIn(std::string text, std::string_view url);

}  // namespace skinpulse::net
