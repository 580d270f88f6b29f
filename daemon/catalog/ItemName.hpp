#pragma once

// ItemName: what a market_hash_name says about its item (docs/api.md §18), for the items a
// source reports that the catalogue lacks ([catalog] auto_add) and for telling a Doppler's
// phase from its paint index. The game's names follow one grammar:
//   [★ ][StatTrak™ |Souvenir ]<weapon or kind>[ | <finish>[ | <event>]][ (<exterior>)]
// e.g. "★ StatTrak™ Karambit | Doppler (Factory New)", "Sticker | Crown (Foil)",
// "Recoil Case". A name outside it (control characters, a leading '#' token such as
// "#CSGO_Type_Knife", empty parts, unbalanced brackets, markup) is junk.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace skinpulse::catalog {

/// Longer names are never items (the longest real ones are about 80 bytes).
inline constexpr std::size_t kMaxItemNameBytes = 256;

struct ParsedItemName {
  std::string weapon_type;  ///< "Karambit", "AK-47", "Sticker"; the whole name for "Recoil Case"
  std::string skin_name;    ///< "Doppler", "Crown (Foil) | Katowice 2019"; empty when none
  bool stattrak = false;
  bool souvenir = false;
  bool star = false;  ///< a knife or gloves ("★ ")
  std::string wear;   ///< "Factory New" … "Battle-Scarred"; empty when the name has none
};

/// Why a name is refused (a fixed text, the rejection reason counted), or nullopt.
std::optional<std::string_view> junkNameReason(std::string_view market_hash_name);

/// The fields of a name that junkNameReason() accepts; nullopt for junk.
std::optional<ParsedItemName> parseItemName(std::string_view market_hash_name);

/// The variant a paint index names on an item of this name (sdk/variants.hpp), checked
/// against the name's finish: 569 is "Phase 1" on a Gamma Doppler, nothing on a Doppler.
std::optional<std::string_view> variantOfPaintIndex(std::int64_t paint_index,
                                                    std::string_view market_hash_name);

}  // namespace skinpulse::catalog
