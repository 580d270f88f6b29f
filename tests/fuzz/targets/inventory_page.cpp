// One page of the game platform's inventory endpoint, as the import reads it.
#include "portfolio/InventoryError.hpp"
#include "portfolio/InventoryPage.hpp"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    const auto page = skinpulse::portfolio::parseInventoryPage(
        std::string_view(reinterpret_cast<const char*>(data), size));
    if (page.more_items && page.last_asset_id.empty()) __builtin_trap();
  } catch (const skinpulse::portfolio::InventoryError&) {
    // the documented refusal of a malformed page
  }
  return 0;
}
