// The JSON text messages of the live protocol (subscribe, unsubscribe, ping).
#include "ws/Protocol.hpp"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  (void)skinpulse::ws::parseClientMessage(
      std::string_view(reinterpret_cast<const char*>(data), size));
  return 0;
}
