#pragma once

// HeadScanner: the strict first pass over a request head's raw bytes, before Boost.Beast
// parses it (docs/adr/0010-front-door.md). It finds the end of the head (CRLF CRLF) and
// enforces what docs/api.md §11 requires and Beast alone does not: the request line
// within `max_line_bytes` (else 414), the header section within `max_header_bytes`
// (else 431), CRLF line ends only (a bare LF or CR is 400), no obs-fold (a line that
// starts with SP or HTAB is 400) and no control bytes other than HTAB (400). It decides
// as early as it can: an over-long line is refused before its end arrives. Pure
// function, no allocation; the fuzz target http_head runs it.

#include <cstddef>
#include <string_view>

namespace skinpulse::http {

struct HeadLimits {
  std::size_t max_line_bytes = 8 * 1024;     ///< request line, without its CRLF
  std::size_t max_header_bytes = 16 * 1024;  ///< header lines and the final CRLF
};

struct HeadScan {
  enum class State { kIncomplete, kComplete, kRefused };
  State state = State::kIncomplete;
  std::size_t head_bytes = 0;  ///< kComplete: bytes up to and including CRLF CRLF
  int status = 0;              ///< kRefused: 400, 414 or 431
  const char* code = "";       ///< kRefused: the problem code
  const char* detail = "";     ///< kRefused: the problem detail
};

/// Scans `bytes`, which start at the request line (leading empty lines removed).
HeadScan scanHead(std::string_view bytes, const HeadLimits& limits);

}  // namespace skinpulse::http
