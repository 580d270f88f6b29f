#pragma once

// Framing: how long a request's body is, from the raw header lines of its head
// (RFC 9112 §6, docs/api.md §11), decided before anything is routed. Stricter than the
// RFC's "MAY": `Transfer-Encoding` is accepted only as exactly `chunked` (one coding),
// never together with `Content-Length`, never on HTTP/1.0; `Content-Length` must be
// 1*DIGIT, and repeated only with the same value. Every refusal is 400 invalid_request
// and closes the connection, so a request can never be framed two ways (the desync of
// issue 15). Pure function over a head that HeadScanner accepted.

#include <cstdint>
#include <string_view>

namespace skinpulse::http {

struct Framing {
  bool valid = false;
  const char* detail = "";  ///< why not valid
  bool chunked = false;
  /// The announced length (0 without a body); saturates at UINT64_MAX for absurd values,
  /// which the body limit then refuses (413).
  std::uint64_t content_length = 0;
  bool has_content_length = false;
  bool expect_continue = false;  ///< `Expect: 100-continue`
};

/// `head` is the whole head (request line to CRLF CRLF); `http10` for an HTTP/1.0 line.
Framing readFraming(std::string_view head, bool http10);

}  // namespace skinpulse::http
