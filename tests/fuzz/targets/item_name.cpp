// Names a source reports that the catalogue lacks ([catalog] auto_add, docs/api.md §18):
// refused as junk or parsed into the fields of a new catalogue item.
#include "catalog/ItemName.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace {

constexpr std::array<std::string_view, 5> kWears = {"Factory New", "Minimal Wear", "Field-Tested",
                                                    "Well-Worn", "Battle-Scarred"};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view name(reinterpret_cast<const char*>(data), size);
  const auto junk = skinpulse::catalog::junkNameReason(name);
  const auto parsed = skinpulse::catalog::parseItemName(name);
  // Exactly one verdict: refused with a reason, or parsed.
  if (junk.has_value() == parsed.has_value()) __builtin_trap();
  if (junk && junk->empty()) __builtin_trap();
  if (parsed) {
    // Nothing longer than the cap, nothing starting with '#', and an item always has a type.
    if (name.size() > skinpulse::catalog::kMaxItemNameBytes || name.empty() ||
        name.front() == '#') {
      __builtin_trap();
    }
    if (parsed->weapon_type.empty()) __builtin_trap();
    bool known_wear = parsed->wear.empty();
    for (const std::string_view wear : kWears) known_wear = known_wear || parsed->wear == wear;
    if (!known_wear) __builtin_trap();
  }
  // The paint index reading never names a variant of a name that is not an item.
  if (!parsed && skinpulse::catalog::variantOfPaintIndex(415, name)) __builtin_trap();
  return 0;
}
