// A request head as the server reads it (daemon/http/HttpConnection): HeadScanner's
// strict pre-scan, Framing's decision on the body, then Boost.Beast's parser on what
// both accepted, and the split of the request target into decoded path and query.
// Besides "no crash": the scanner's verdict is consistent (a complete head ends in
// CRLF CRLF and holds no bare LF; a refusal is 400, 414 or 431), and whenever our
// framing accepts a head that Beast also accepts, both frame the body the same way
// (chunked, or the same Content-Length): the server can never read one request two ways.
#include "skinpulse/sdk/url_encoding.hpp"

#include "http/Framing.hpp"
#include "http/HeadScanner.hpp"

#include <boost/beast/http/empty_body.hpp>
#include <boost/beast/http/parser.hpp>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

using namespace skinpulse::http;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  HeadLimits limits;
  limits.max_line_bytes = 1024;
  limits.max_header_bytes = 2048;
  const HeadScan scan = scanHead(bytes, limits);
  if (scan.state == HeadScan::State::kRefused) {
    if (scan.status != 400 && scan.status != 414 && scan.status != 431) std::abort();
    return 0;
  }
  if (scan.state == HeadScan::State::kIncomplete) return 0;
  if (scan.head_bytes < 4 || scan.head_bytes > size) std::abort();
  const std::string_view head = bytes.substr(0, scan.head_bytes);
  if (head.substr(head.size() - 4) != "\r\n\r\n") std::abort();
  for (std::size_t i = 0; i < head.size(); ++i) {
    if (head[i] == '\n' && (i == 0 || head[i - 1] != '\r')) std::abort();
  }
  const bool http10 = head.find("HTTP/1.0\r\n") != std::string_view::npos;
  const Framing framing = readFraming(head, http10);
  if (!framing.valid) return 0;
  if (framing.chunked && framing.has_content_length) std::abort();

  boost::beast::http::request_parser<boost::beast::http::empty_body> parser;
  parser.header_limit(4096);
  parser.eager(false);
  boost::system::error_code error;
  parser.put(boost::asio::buffer(head.data(), head.size()), error);
  if (error || !parser.is_header_done()) return 0;  // refused by Beast: 400
  if (parser.chunked() != framing.chunked) std::abort();
  const auto length = parser.content_length();
  if (!framing.chunked) {
    const std::uint64_t beast_length = length ? *length : 0;
    if (beast_length != framing.content_length) std::abort();
  }
  const auto target = parser.get().target();
  const auto question = target.find('?');
  (void)skinpulse::sdk::percentDecode(
      std::string_view(target.data(), target.size()).substr(0, question), false);
  if (question != boost::beast::string_view::npos) {
    (void)skinpulse::sdk::parseQuery(
        std::string_view(target.data(), target.size()).substr(question + 1));
  }
  return 0;
}
