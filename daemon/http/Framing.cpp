#include "http/Framing.hpp"

#include <limits>

namespace skinpulse::http {
namespace {

bool equalsIgnoreCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    auto x = static_cast<unsigned char>(a[i]);
    auto y = static_cast<unsigned char>(b[i]);
    if (x >= 'A' && x <= 'Z') x = static_cast<unsigned char>(x + 32);
    if (y >= 'A' && y <= 'Z') y = static_cast<unsigned char>(y + 32);
    if (x != y) return false;
  }
  return true;
}

std::string_view trim(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
  return text;
}

Framing invalid(const char* detail) {
  Framing framing;
  framing.detail = detail;
  return framing;
}

}  // namespace

Framing readFraming(std::string_view head, bool http10) {
  Framing framing;
  int codings = 0;
  bool chunked_last = false;
  bool other_coding = false;
  bool has_transfer_encoding = false;
  // Skip the request line; every header line ends in CRLF (HeadScanner checked it).
  auto line_end = head.find("\r\n");
  std::size_t at = line_end == std::string_view::npos ? head.size() : line_end + 2;
  while (at < head.size()) {
    line_end = head.find("\r\n", at);
    if (line_end == std::string_view::npos || line_end == at) break;
    const std::string_view line = head.substr(at, line_end - at);
    at = line_end + 2;
    const auto colon = line.find(':');
    if (colon == std::string_view::npos) continue;  // Beast refuses it afterwards
    const std::string_view name = line.substr(0, colon);
    const std::string_view value = trim(line.substr(colon + 1));
    if (equalsIgnoreCase(name, "Content-Length")) {
      if (value.empty()) return invalid("Content-Length is not a number");
      std::uint64_t length = 0;
      for (const char c : value) {
        if (c < '0' || c > '9') return invalid("Content-Length is not a number");
        const auto digit = static_cast<std::uint64_t>(c - '0');
        if (length > (std::numeric_limits<std::uint64_t>::max() - digit) / 10) {
          length = std::numeric_limits<std::uint64_t>::max();
        } else {
          length = length * 10 + digit;
        }
      }
      if (framing.has_content_length && framing.content_length != length) {
        return invalid("Content-Length repeated with different values");
      }
      framing.has_content_length = true;
      framing.content_length = length;
    } else if (equalsIgnoreCase(name, "Transfer-Encoding")) {
      has_transfer_encoding = true;
      std::string_view list = value;
      while (true) {
        const auto comma = list.find(',');
        const std::string_view coding = trim(list.substr(0, comma));
        if (!coding.empty()) {
          ++codings;
          chunked_last = equalsIgnoreCase(coding, "chunked");
          if (!chunked_last) other_coding = true;
        }
        if (comma == std::string_view::npos) break;
        list.remove_prefix(comma + 1);
      }
    } else if (equalsIgnoreCase(name, "Expect")) {
      framing.expect_continue = equalsIgnoreCase(value, "100-continue");
    }
  }
  if (has_transfer_encoding) {
    if (framing.has_content_length) return invalid("Transfer-Encoding with Content-Length");
    if (http10) return invalid("Transfer-Encoding in an HTTP/1.0 request");
    if (codings == 0 || !chunked_last) return invalid("the final transfer coding is not chunked");
    if (other_coding || codings > 1) return invalid("transfer coding other than chunked");
    framing.chunked = true;
  }
  framing.valid = true;
  return framing;
}

}  // namespace skinpulse::http
