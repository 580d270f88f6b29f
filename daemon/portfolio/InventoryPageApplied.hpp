#pragma once

// The sticker and charm blocks of an inventory description (docs/upstreams.md §d.4): what
// is applied to an asset, read from the html the platform renders for its own page.

#include "portfolio/InventoryPage.hpp"

#include <optional>
#include <string_view>
#include <vector>

namespace skinpulse::portfolio {

/// Which block a description entry is: its `name` ("sticker_info", "keychain_info"), or,
/// in bodies that carry no `name` on their entries, the block's `<div id=…>`.
enum class AppliedBlockKind { kSticker, kCharm };

/// The kind of a description entry's block, or nothing when the entry is not one: an entry
/// named anything else is never read as a block, whatever its html says.
std::optional<AppliedBlockKind> appliedBlockKind(std::string_view entry_name, bool has_name,
                                                 std::string_view html);

/// Reads one block's html into applied items of that kind, slots 0.. in the order shown.
/// Each `<img>`'s `title` ("Sticker: Titan | Katowice 2014") names one item; a body without
/// titles (older bodies) is read from the caption ("Sticker: A, B, C"), split at commas
/// outside parentheses and only when that gives one name per picture. `name` becomes the
/// market_hash_name: the title's prefix, " | ", the rest ("Sticker | Titan | Katowice 2014",
/// "Charm | Lil' Crass", "Souvenir Charm | …").
/// Returns nothing when the block cannot be read for certain (oversized html, too many
/// pictures, a caption that does not split into one name per picture, an empty or
/// oversized name): a cosmetic block must never cost the user the asset, so the caller
/// keeps the asset without that block rather than refusing the page.
std::optional<std::vector<AppliedAsset>> parseAppliedBlock(AppliedBlockKind kind,
                                                           std::string_view html);

}  // namespace skinpulse::portfolio
