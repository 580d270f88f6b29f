#pragma once

// Where a list feed keeps its items and their fields, and the one loop that turns them into
// VariantQuotes and a PollReport (SDK ABI 1.3: rows read, rows skipped per reason). json_http
// builds a Mapping from its configuration keys; the bundled list plugins (csfloat, market_csgo,
// waxpeer, bitskins, csdeals, skinport) declare theirs in code. A hostile row is skipped and
// counted; nothing here throws once parsing started.

#include "skinpulse/sdk/source.hpp"
#include "skinpulse/sdk/types.hpp"

#include "ListFeed.hpp"
#include "SourceSupport.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace skinpulse::plugins::support {

/// Where a field is, written in the configuration as:
///   `name`      a member of the item (the common case);
///   `/a/b`      a JSON pointer (RFC 6901, `~0` = `~`, `~1` = `/`) into the item;
///   `#/a/b`     a JSON pointer into the whole document (one top-level value, e.g. a
///               feed's update time);
///   `` (empty)  the item value itself (a feed keyed by name whose values are prices).
struct FieldPath {
  bool from_root = false;
  std::vector<std::string> tokens;  ///< a member name is one token; the item itself none

  /// A member of the item.
  static FieldPath member(std::string name) { return FieldPath{false, {std::move(name)}}; }
  /// Parses the forms above; throws std::runtime_error naming `key` when malformed.
  static FieldPath parse(std::string_view key, std::string_view text);
};

/// What the items are: a JSON array of objects, an object keyed by market_hash_name, or
/// either.
enum class ItemsShape { kAny, kArray, kObject };

struct Mapping {
  std::vector<std::string> items_path;  ///< JSON pointer tokens; empty: the document
  ItemsShape shape = ItemsShape::kAny;
  /// In an object keyed by name the key is the name, unless this is false (market.csgo.com
  /// keys its class_instance list by "classid_instanceid"; the name is a member).
  bool name_from_key = true;
  FieldPath name = FieldPath::member("market_hash_name");
  FieldPath price = FieldPath::member("price");
  /// Read when `price` is absent; a price found there has kind `fallback_kind`
  /// (Skinport's suggested_price when nobody lists the item).
  std::optional<FieldPath> fallback_price;
  std::optional<sdk::PriceKind> fallback_kind;
  std::optional<FieldPath> volume;    ///< traded volume; not read when unset
  std::optional<FieldPath> listings;  ///< number of listings; not read when unset
  std::optional<FieldPath> time;      ///< per item, or '#' for one top-level time
  std::optional<FieldPath> image;     ///< an https picture of the item
  /// A per-row currency member: a row naming another currency than `currency` is skipped.
  std::optional<FieldPath> row_currency;
  /// A top-level member that must not be `false` ({"success": false, …} is an upstream
  /// error, not an empty market).
  std::optional<FieldPath> success;
  PriceUnit unit = PriceUnit::kCents;
  std::string currency = "USD";  ///< ISO 4217, upper case
  /// The kind every quote of this mapping has; unset: the instance's `kind` key.
  std::optional<sdk::PriceKind> kind;
  /// Unreadable volume/listings/time: true drops the value and keeps the row; false skips
  /// the row as malformed (json_http, whose mapping is the user's and may be wrong).
  bool lenient = false;
  /// A price of 0 or less is "no price" (a list that keeps unlisted items at 0).
  bool positive_only = false;
  /// A price found as an object is read through its `price` member, else its
  /// `starting_at.price` (json_http: the csgo-trader mirror files write a price as a number,
  /// as {"price": n} or as {"starting_at": {"price": n}} depending on the file, and public
  /// clients disagree on which one YouPin's is; docs/upstreams.md "Variants and value shapes").
  bool unwrap_price_objects = false;
  /// The row's variant (sdk/variants.hpp): a string naming it ("Ruby", "phase2"; Skinport's
  /// `version`) or an integer paint index (415 = Ruby). A value naming no variant leaves the
  /// quote's variant empty and the row is still passed on.
  std::optional<FieldPath> variant;
  /// An object of per-variant prices, keyed by variant name or paint index (csgo-trader's
  /// `starting_at.doppler`: {"Phase 1": 812.5, "Ruby": 3040}); each usable entry becomes one
  /// more quote of the row's name with that variant, the row's kind and unit. Unknown keys
  /// and unusable prices are skipped and counted (`unknown_variant`, `no_price`, `bad_price`).
  std::optional<FieldPath> variant_prices;
};

/// Counts of one parse, logged once per poll.
struct RowCounts {
  std::size_t rows = 0;
  std::size_t no_price = 0;  ///< price absent or null: normal in sparse feeds (no buy order)
  std::size_t other_currency = 0;
  std::size_t bad_row = 0;  ///< not an object where fields are members
  std::size_t bad_name = 0;
  std::size_t bad_price = 0;
  std::size_t bad_volume = 0;
  std::size_t bad_listings = 0;
  std::size_t bad_time = 0;
  std::size_t unknown_variant = 0;  ///< a per-variant price under a key naming no variant
  std::size_t malformed() const {
    return bad_row + bad_name + bad_price + bad_volume + bad_listings + bad_time;
  }
  /// "<rows> items, <n> quotes, … skipped (…)", for the log.
  std::string summary(std::size_t quotes) const;
  /// The skip counts a PollReport carries: stable lower_snake reasons (`no_price`,
  /// `other_currency`, `bad_row`, `bad_name`, `bad_price`, `bad_volume`, `bad_listings`,
  /// `bad_time`, `unknown_variant`), only those that occurred.
  sdk::SkipCounts skipped() const;
};

/// A bundled plugin's feed in a few words: JSON pointers (`time` may be '#/…' for one
/// top-level time), empty = not in this feed.
struct ListShape {
  std::string_view items = {};  ///< pointer to the list, e.g. "/items"
  std::string_view name = "market_hash_name";
  std::string_view price = {};
  PriceUnit unit = PriceUnit::kCents;
  std::string_view listings = {};
  std::string_view time = {};
  std::string_view image = {};
  bool success = false;  ///< the document has a top-level "success" flag
};

/// The Mapping of a bundled list plugin: array items, `lenient` and `positive_only` (a
/// market's own feed keeps unlisted items at 0 and is not the user's mapping to debug).
Mapping listMapping(const ListShape& shape);

/// Maps a parsed document. kMalformed when `success` is false, the items are not of
/// `shape`, the top-level time is unreadable, or there are items and none is usable (the
/// report still says what was read and skipped). Every row is passed on: two rows of one
/// name (two variants, or a variant and a plain row) are two quotes (docs/api.md §18).
sdk::PollReport mapFeed(FeedValue root, const Mapping& mapping, RowCounts& counts);

/// Parses `body` (nesting at most `max_depth`) and maps it: the whole parse path of a list
/// plugin, also what bench/sources and the fuzz targets drive.
sdk::PollReport parseList(const std::string& body, const Mapping& mapping, std::size_t max_depth,
                          RowCounts& counts);

}  // namespace skinpulse::plugins::support
