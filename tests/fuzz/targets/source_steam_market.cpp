// The steam_market plugin's response parsing (see source_response.hpp).
#include "SteamMarketSource.hpp"
#include "source_response.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return skinpulse::fuzz::fetchWithBody<skinpulse::plugins::steam_market::SteamMarketSource>(
      data, size, {{"url", "http://steam.test"}, {"items", "AK-47 | Redline (Field-Tested)"}});
}
