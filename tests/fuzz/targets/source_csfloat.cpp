// The csfloat plugin's response parsing (see source_response.hpp).
#include "CsfloatSource.hpp"
#include "source_response.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return skinpulse::fuzz::fetchWithBody<skinpulse::plugins::csfloat::CsfloatSource>(
      data, size,
      {{"url", "http://csfloat.test"}, {"api_key", "fuzz-key-0123456789"}, {"max_pages", "1"}});
}
