// The provider's check_authentication answer (OpenID 2.0 key-value form).
#include "KeyValueForm.hpp"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  (void)skinpulse::plugins::openid2::assertsValid(
      std::string_view(reinterpret_cast<const char*>(data), size));
  return 0;
}
