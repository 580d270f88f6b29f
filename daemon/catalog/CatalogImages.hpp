#pragma once

// CatalogImages: fills the pictures of catalogue items that have none, from whatever
// knows one — a market source's quote (docs/adr/0011-sdk-abi-1-2.md) or an imported
// inventory description. An item's own picture is never replaced. The store is written
// in one transaction and the in-memory catalogue then republished, so the API shows the
// picture at once.

#include "catalog/Catalog.hpp"
#include "store/CatalogStore.hpp"

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace skinpulse::catalog {

/// A picture the catalogue may show: https only, printable ASCII without quotes or angle
/// brackets (it is rendered into pages), at most 2 KiB.
bool usableImageUrl(std::string_view url);

/// The https address of a game-platform economy image from a description's `icon_url`
/// (a path token, docs/upstreams.md §d.1); empty when the token is not one.
std::string economyImageUrl(std::string_view icon_url);

class CatalogImages {
 public:
  CatalogImages(store::CatalogStore& store, Catalog& catalog) : store_(store), catalog_(catalog) {}

  /// Stores the (item id, URL) pairs whose item has no picture yet and republishes the
  /// catalogue when one changed; returns how many items changed. `origin` names the
  /// caller in the log line. A store failure is logged, not thrown: pictures are
  /// cosmetic and whatever asked (a stored cycle, an import) has already succeeded.
  std::size_t fill(const std::vector<store::CatalogStore::ItemImage>& images,
                   std::string_view origin);

 private:
  store::CatalogStore& store_;
  Catalog& catalog_;
};

}  // namespace skinpulse::catalog
