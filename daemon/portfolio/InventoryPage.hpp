#pragma once

// One page of the platform's inventory endpoint (docs/upstreams.md §d.1), reduced to
// what an import needs: every asset with the market_hash_name of its description.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace skinpulse::portfolio {

/// Something the inventory says is applied to an asset (docs/upstreams.md §d): a sticker
/// in a slot, or a charm. `name` is the applied item's market_hash_name ("Sticker | X",
/// "Charm | Y"), built from the description's block.
struct AppliedAsset {
  std::string kind;  ///< "sticker" or "charm"
  int slot = 0;      ///< 0-based position within the blocks of that kind
  std::string name;

  bool operator==(const AppliedAsset&) const = default;
};

struct InventoryAsset {
  std::string asset_id;
  /// Empty when the page carries no description for the asset's class, or the
  /// description has no market_hash_name: such an asset cannot be matched.
  std::optional<std::string> market_hash_name;
  std::int64_t amount = 1;  ///< units in the stack, >= 1
  /// The description's `icon_url`: a path on the platform's image server (see
  /// economyImageUrl), empty when the description has none.
  std::string icon_url;
  /// The asset's paint index ("Finish Catalog", propertyid 7 of the page's
  /// `asset_properties`; docs/upstreams.md §d): it tells a Doppler's phase. Empty when the
  /// page carries none for the asset or it is not a non-negative integer.
  std::optional<std::int64_t> paint_index;
  /// What the asset's description says is applied to it, stickers by slot then charms;
  /// empty when nothing is (or the description has no such block).
  std::vector<AppliedAsset> applied = {};
};

struct InventoryPage {
  std::vector<InventoryAsset> assets;
  bool more_items = false;
  std::string last_asset_id;  ///< set when more_items: the next page's start_assetid
};

/// Parses a 200 body. Throws InventoryError(kUpstream) when the body is not the
/// documented shape: not a JSON object, `success` not 1, ids or amounts that are not
/// non-negative integers, `more_items` without `last_assetid`, nesting deeper than the
/// format ever goes. Refusing the whole page (rather than skipping a strange asset) is
/// deliberate: an import deletes holdings that are missing from the inventory, so a
/// half-read page would silently cost the user holdings.
InventoryPage parseInventoryPage(std::string_view body);

}  // namespace skinpulse::portfolio
