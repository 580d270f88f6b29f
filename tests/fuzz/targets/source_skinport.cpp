// The skinport plugin's response parsing (see source_response.hpp).
#include "SkinportSource.hpp"
#include "source_response.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return skinpulse::fuzz::fetchWithBody<skinpulse::plugins::skinport::SkinportSource>(
      data, size, {{"url", "http://skinport.test/"}});
}
