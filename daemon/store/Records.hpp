#pragma once

// Plain records exchanged with the stores. Times are Unix seconds (UTC), prices cents.

#include "skinpulse/sdk/types.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace skinpulse::store {

/// One catalogue entry as it is seeded (no id yet).
struct CatalogEntry {
  std::string market_hash_name;
  std::string weapon_type;
  std::string skin_name;
  std::string rarity;
  bool stattrak = false;
  std::string image_url;
  /// A variant line (docs/api.md §18): the variant's name from sdk::kVariantNames
  /// ("Ruby"); empty for a base item. Its base is the entry of the same name without one.
  std::string variant = {};
};

/// A stored catalogue item.
struct ItemRecord {
  std::int64_t id = 0;
  std::string market_hash_name;
  std::string weapon_type;
  std::string skin_name;
  std::string rarity;
  bool stattrak = false;
  std::string image_url;
  std::int64_t created_at = 0;
  /// docs/api.md §18: empty for a base item; else the variant's name ("Ruby"), and
  /// `variant_of` is the id of the base item of the same market_hash_name.
  std::string variant = {};
  std::optional<std::int64_t> variant_of = std::nullopt;
};

/// One observation, identified by (item_id, source, time). `volume` is traded volume only;
/// a count of current listings is `listings` (null when the source does not say). `kind`
/// says what the price is (docs/adr/0011-sdk-abi-1-2.md); stored as its name.
struct PricePoint {
  std::int64_t item_id = 0;
  std::string source;
  std::int64_t time = 0;
  std::int64_t price = 0;
  std::int64_t volume = 0;
  sdk::PriceKind kind = sdk::PriceKind::kAsk;
  std::optional<std::int64_t> listings = std::nullopt;
  /// Flagged at ingest by the outlier rules of docs/api.md §12; stored with the point.
  bool outlier = false;

  bool operator==(const PricePoint&) const = default;
};

struct UserRecord {
  std::string id;  ///< UUID
  std::string email;
  std::string display_name;
  std::string avatar_url;
  std::int64_t created_at = 0;
};

/// A login identity: (provider, subject) is unique, e.g. ("idp-a", "10769150350006150715").
struct IdentityRecord {
  std::string provider;
  std::string subject;
  std::string user_id;
  std::string email;
  std::int64_t created_at = 0;
};

/// A game-platform link: a user may have several (docs/api.md §23.2), a platform id
/// belongs to one user at most.
struct GameLinkRecord {
  std::string user_id;
  std::string platform_id;  ///< SteamID64, 17 digits
  std::int64_t linked_at = 0;
  std::string label = {};  ///< the user's name for the account ("storage"), '' by default
};

/// Something applied to a held asset (docs/api.md §23): a sticker in a slot or a charm.
/// `item_id` is its catalogue item, empty when the catalogue has no item of that name.
struct AppliedRecord {
  std::string kind;  ///< "sticker" or "charm"
  int slot = 0;      ///< 0-based position in the inventory's block of that kind
  std::string name;  ///< its market_hash_name ("Sticker | ...", "Charm | ...")
  std::optional<std::int64_t> item_id = std::nullopt;

  bool operator==(const AppliedRecord&) const = default;
};

/// A holding with what its owner says they paid (docs/api.md §15): `cost_basis` cents
/// per unit and `acquired_at` Unix seconds, each empty when not given. A holding is one
/// (account, item, what is applied) of a user (docs/api.md §23): identical assets stay
/// one row, assets that differ in what is applied to them are rows apart.
struct HoldingRecord {
  std::int64_t item_id = 0;
  std::int64_t quantity = 0;
  std::int64_t imported_at = 0;
  std::optional<std::int64_t> cost_basis = std::nullopt;
  std::optional<std::int64_t> acquired_at = std::nullopt;
  std::int64_t holding_id = 0;   ///< stable while the holding exists; 0 before it is stored
  std::string account = {};      ///< the platform id it was imported from; empty before §23
  std::string applied_key = {};  ///< canonical text of `applied`, empty when nothing is
  std::vector<AppliedRecord> applied = {};

  bool operator==(const HoldingRecord&) const = default;
};

/// Units of a holding that left its account's inventory at an import (docs/api.md §23.4):
/// the identity they had, how many, when the import noticed, the item's price per unit
/// then (0 without one) and copies of the cost fields at that moment. `sale_price` (cents
/// per unit) is what the user says they sold for; empty until they say.
struct DepartureRecord {
  std::int64_t departure_id = 0;
  std::string account = {};
  std::int64_t item_id = 0;
  std::string applied_key = {};
  std::vector<AppliedRecord> applied = {};
  std::int64_t quantity = 0;
  std::int64_t left_at = 0;
  std::int64_t last_price = 0;
  std::optional<std::int64_t> cost_basis = std::nullopt;
  std::optional<std::int64_t> acquired_at = std::nullopt;
  std::optional<std::int64_t> sale_price = std::nullopt;
  std::optional<std::int64_t> sale_price_set_at = std::nullopt;

  bool operator==(const DepartureRecord&) const = default;
};

/// A change to a holding's cost fields: a field is written only when its `set_` flag is
/// true (absent from a PATCH body: unchanged); an empty value clears it.
struct CostChange {
  bool set_cost_basis = false;
  std::optional<std::int64_t> cost_basis = std::nullopt;
  bool set_acquired_at = false;
  std::optional<std::int64_t> acquired_at = std::nullopt;
};
/// One item's cost basis from a bulk upload (HoldingStore::setCosts, docs/api.md §23.3):
/// cents per unit, and when it was acquired (nullopt: the stored date stays).
struct ItemCost {
  std::int64_t item_id = 0;
  std::int64_t cost_basis = 0;
  std::optional<std::int64_t> acquired_at = std::nullopt;

  bool operator==(const ItemCost&) const = default;
};

/// One portfolio value snapshot (docs/api.md §15): the hour it stands for (Unix seconds
/// of the hour's start), when it was taken, and the totals in cents.
struct SnapshotRecord {
  std::int64_t hour = 0;
  std::int64_t taken_at = 0;
  std::int64_t total_value = 0;
  std::int64_t cost_total = 0;

  bool operator==(const SnapshotRecord&) const = default;
};

}  // namespace skinpulse::store
