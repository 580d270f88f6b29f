// The json_http plugin's response parsing (see source_response.hpp).
#include "JsonHttpSource.hpp"
#include "source_response.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return skinpulse::fuzz::fetchWithBody<skinpulse::plugins::json_http::JsonHttpSource>(
      data, size, {{"url", "http://feed.test/prices.json"}});
}
