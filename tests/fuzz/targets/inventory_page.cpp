// One page of the game platform's inventory endpoint, as the import reads it; the same
// bytes also as one applied-items block (html), the part of a page most likely to vary.
#include "portfolio/InventoryError.hpp"
#include "portfolio/InventoryPage.hpp"
#include "portfolio/InventoryPageApplied.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace {

void checkApplied(const std::vector<skinpulse::portfolio::AppliedAsset>& applied) {
  // At most 8 pictures per block, one block of each kind; every name is "Prefix | name".
  if (applied.size() > 16) __builtin_trap();
  for (const auto& item : applied) {
    if (item.kind != "sticker" && item.kind != "charm") __builtin_trap();
    if (item.slot < 0 || item.slot >= 8) __builtin_trap();
    if (item.name.find(" | ") == std::string::npos) __builtin_trap();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  try {
    const auto page = skinpulse::portfolio::parseInventoryPage(input);
    if (page.more_items && page.last_asset_id.empty()) __builtin_trap();
    for (const auto& asset : page.assets) checkApplied(asset.applied);
  } catch (const skinpulse::portfolio::InventoryError&) {
    // the documented refusal of a malformed page
  }
  for (const auto kind : {skinpulse::portfolio::AppliedBlockKind::kSticker,
                          skinpulse::portfolio::AppliedBlockKind::kCharm}) {
    if (const auto applied = skinpulse::portfolio::parseAppliedBlock(kind, input)) {
      checkApplied(*applied);
    }
  }
  return 0;
}
