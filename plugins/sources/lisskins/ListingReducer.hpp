#pragma once

// ListingReducer: the handler that turns lis-skins' full export, as StreamJsonParser reads
// it, into per-item summaries of its listings. It follows only the path
// `{"last_update": N, "items": [{"name": S, "price": X, "unlock_at": T|null,
// "item_paint_index": P, ...}, ...]}`; every other member, and anything nested inside a
// listing, is read past and forgotten.
//
// Only lots a buyer can take now count (docs/api.md §19): a lot whose `unlock_at` lies
// after `now` is trade-locked, sold cheaper, and skipped as `locked`. A lot's
// `item_paint_index` names its variant (sdk/variants.hpp: 415 = Ruby): listings are
// summarised per (name, variant), so a Doppler's phases are priced apart and the host
// prices the base item from the cheapest of them (docs/api.md §18).
//
// Memory: each listing costs its price as int32 cents (4 bytes) in its item's vector
// (amortised growth: at most 8 bytes), each distinct name one map entry. For the real
// export (2.3 M listings, ~25 k names) that is ~10-20 MB, about a tenth of the document.
//
// A listing without a string name, with an overlong name, without a number price, with a
// price that is not finite, <= 0 after rounding to cents or above kMaxPriceCents, with an
// unreadable `unlock_at`, or that is not an object, is skipped and counted per reason; so
// is a listing of a new name once `max_items` names are held (the catalogue has ~35 k
// items: a hostile export of millions of distinct names must not make us hold them all).

#include "StreamJsonParser.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace skinpulse::plugins::lisskins {

/// One item's listings, reduced. Quantile rules (tested): `median` of an even count is the
/// mean of the two middle prices rounded half up to a cent; `p05` is the nearest-rank 5th
/// percentile, the ceil(0.05 n)-th lowest price (the minimum for up to 20 listings).
struct ItemSummary {
  std::string name;
  std::string variant;  ///< from the lots' item_paint_index; empty when none names one
  std::int64_t count = 0;
  std::int64_t min_cents = 0;
  std::int64_t p05_cents = 0;
  std::int64_t median_cents = 0;
};

struct ReduceCounts {
  std::int64_t listings = 0;  ///< listings kept
  std::int64_t skipped = 0;   ///< listings (or array members) skipped, all reasons
  std::int64_t bad_row = 0;   ///< not an object
  std::int64_t bad_name = 0;
  std::int64_t bad_price = 0;  ///< absent, null, not a number or out of range
  std::int64_t bad_time = 0;   ///< an unlock_at that is neither null nor a time
  std::int64_t locked = 0;     ///< unlock_at after now: no buyer can take it now
  std::int64_t too_many_items = 0;
  /// Listings read, kept or not.
  std::int64_t read() const { return listings + skipped; }
};

class ListingReducer final : public JsonHandler {
 public:
  /// $10,000,000: above any CS2 item, well inside int32 cents.
  static constexpr std::int64_t kMaxPriceCents = 1'000'000'000;
  /// Distinct names held at most, by default: six times the catalogue.
  static constexpr std::size_t kDefaultMaxItems = 200'000;

  /// `now`: Unix seconds a lot's unlock_at is held against.
  explicit ListingReducer(std::int64_t now, std::size_t max_items = kDefaultMaxItems)
      : now_(now), max_items_(max_items) {}

  void onStartObject() override;
  void onEndObject() override;
  void onStartArray() override;
  void onEndArray() override;
  void onKey(std::string_view key, bool overlong) override;
  void onScalar(const JsonScalar& value) override;

  /// True once the top-level `items` array was seen (and closed).
  bool sawItems() const { return items_closed_; }
  /// `last_update` when it was a positive integer of seconds.
  std::optional<std::int64_t> lastUpdate() const { return last_update_; }
  const ReduceCounts& counts() const { return counts_; }
  std::size_t distinctItems() const { return prices_.size(); }

  /// The summaries, sorted by name. Sorts each item's prices in place: call once, at the end.
  std::vector<ItemSummary> summarize();

  /// The rules of ItemSummary over `sorted` (ascending, not empty).
  static std::int64_t medianOf(const std::vector<std::int32_t>& sorted);
  static std::int64_t p05Of(const std::vector<std::int32_t>& sorted);

 private:
  void endListing();
  void skip(std::int64_t ReduceCounts::*reason);

  int depth_ = 0;          ///< containers open around the current token
  std::string top_key_;    ///< the member being read at depth 1
  bool in_items_ = false;  ///< inside the top-level items array (depth 2)
  bool items_closed_ = false;
  bool in_listing_ = false;  ///< inside one listing object (depth 3)
  std::string listing_key_;  ///< the member being read at depth 3
  std::string name_;
  bool name_ok_ = false;
  std::optional<std::int32_t> price_cents_;
  bool locked_ = false;
  bool unlock_unreadable_ = false;
  std::string variant_;
  std::optional<std::int64_t> last_update_;
  std::int64_t now_;
  std::size_t max_items_;
  ReduceCounts counts_;
  /// Keyed by name, '\0', variant (a name never holds a NUL: it ends overlong strings' use).
  std::unordered_map<std::string, std::vector<std::int32_t>> prices_;
};

}  // namespace skinpulse::plugins::lisskins
