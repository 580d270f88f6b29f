// A request head as the HTTP server reads it from a socket (Poco's parser, then our
// split of the request target into decoded path and query).
#include "skinpulse/sdk/url_encoding.hpp"

#include <Poco/Exception.h>
#include <Poco/Net/HTTPRequest.h>

#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  Poco::Net::HTTPRequest request;
  try {
    request.read(in);
  } catch (const Poco::Exception&) {
    return 0;  // answered 400 by the server
  }
  const std::string& target = request.getURI();
  const auto question = target.find('?');
  (void)skinpulse::sdk::percentDecode(std::string_view(target).substr(0, question), false);
  if (question != std::string::npos) {
    (void)skinpulse::sdk::parseQuery(std::string_view(target).substr(question + 1));
  }
  (void)request.hasContentLength();
  (void)request.getChunkedTransferEncoding();
  return 0;
}
