#include "http/HeadScanner.hpp"

namespace skinpulse::http {
namespace {

HeadScan refuse(int status, const char* code, const char* detail) {
  HeadScan scan;
  scan.state = HeadScan::State::kRefused;
  scan.status = status;
  scan.code = code;
  scan.detail = detail;
  return scan;
}

HeadScan malformed(const char* detail) { return refuse(400, "invalid_request", detail); }

bool isControl(unsigned char c) { return (c < 0x20 && c != '\t') || c == 0x7f; }

}  // namespace

HeadScan scanHead(std::string_view bytes, const HeadLimits& limits) {
  // The request line.
  std::size_t i = 0;
  for (; i < bytes.size(); ++i) {
    const auto c = static_cast<unsigned char>(bytes[i]);
    if (c == '\r') break;
    if (c == '\n') return malformed("bare LF line end");
    if (isControl(c)) return malformed("control byte in the request line");
    if (i >= limits.max_line_bytes) {
      return refuse(414, "uri_too_long", "request line over the limit");
    }
  }
  if (i >= bytes.size()) return {};
  if (i == 0) return malformed("empty request line");
  if (i + 1 >= bytes.size()) return {};
  if (bytes[i + 1] != '\n') return malformed("bare CR in the request line");
  const std::size_t headers_start = i + 2;

  // Header lines, up to the empty line.
  std::size_t line_start = headers_start;
  for (std::size_t j = headers_start;; ++j) {
    if (j - headers_start >= limits.max_header_bytes) {
      return refuse(431, "header_fields_too_large", "header section over the limit");
    }
    if (j >= bytes.size()) return {};
    const auto c = static_cast<unsigned char>(bytes[j]);
    if (j == line_start && (c == ' ' || c == '\t')) {
      return malformed("obsolete line folding in a header");
    }
    if (c == '\n') return malformed("bare LF line end");
    if (c == '\r') {
      if (j + 1 >= bytes.size()) {
        // Only the header limit can still refuse; the next byte decides the rest.
        if (j + 1 - headers_start >= limits.max_header_bytes) {
          return refuse(431, "header_fields_too_large", "header section over the limit");
        }
        return {};
      }
      if (bytes[j + 1] != '\n') return malformed("bare CR in a header");
      if (j == line_start) {
        if (j + 2 - headers_start > limits.max_header_bytes) {
          return refuse(431, "header_fields_too_large", "header section over the limit");
        }
        HeadScan scan;
        scan.state = HeadScan::State::kComplete;
        scan.head_bytes = j + 2;
        return scan;
      }
      ++j;  // past the LF
      line_start = j + 1;
      continue;
    }
    if (isControl(c)) return malformed("control byte in a header");
  }
}

}  // namespace skinpulse::http
