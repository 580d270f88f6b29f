#pragma once

// ResponseHead: the status line and header fields of a Response as sent on the wire
// (HTTP/1.1; Date, Content-Type, Content-Length, the handler's headers, Connection).
// Used by HttpConnection, which writes it and the body in one gathered write.

#include "http/Request.hpp"

#include <optional>
#include <string>

namespace skinpulse::http {

enum class ConnectionHeader {
  kNone,       ///< HTTP/1.1 keep-alive (the default) or a protocol switch
  kKeepAlive,  ///< HTTP/1.0 client that asked to keep the connection
  kClose,      ///< the connection closes after this response
};

/// The head for `response` with a body of `body_bytes` (announced even when a HEAD
/// request gets no body). A 1xx response announces no length (RFC 9110 §8.6).
std::string responseHead(const Response& response, std::size_t body_bytes,
                         ConnectionHeader connection);

/// The first header field of `response` that cannot go on the wire as it is, by name
/// (Content-Type included): a name that is not an RFC 9110 token, or a value with CR, LF
/// or NUL (a handler that copied client text into a header would otherwise let the
/// client add header fields or a whole response). nullopt when every field is sound.
std::optional<std::string> unsafeHeaderField(const Response& response);

/// The current time as an IMF-fixdate ("Sun, 06 Nov 1994 08:49:37 GMT"), cached per
/// second and per thread.
const std::string& httpDate();

}  // namespace skinpulse::http
