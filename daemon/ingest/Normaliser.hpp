#pragma once

// Normaliser: a source's observations → price points (docs/api.md §4): names trimmed
// and matched exactly against the catalogue, prices to positive integer cents, volume and
// listings non-negative, other currencies converted to USD cents with the newest rate of
// the RateBook (docs/api.md §12; none: rejected as `no_rate`), the source's own time or the poll
// time, the quote's kind or the instance's. Everything it drops is counted by reason, never
// silently.
//
// Variants (docs/api.md §18): a quote whose `variant` names a variant item of its name is
// stored under that item, and also counts for the base item of the name: a base item whose
// name came with variant rows gets one point per source from the poll, the lowest price of
// all its rows (variant and plain alike) at the newest of their times, volumes and listings
// summed (what the cheapest listing of the name costs, and how many there are). Other rows
// that land on the same (item, source, time) are merged the same way, never dropped.
//
// One series, one kind: a quote whose kind differs from its instance's (a feed with bids
// and asks, e.g. dmarket) is stored under the source `NAME-<kind>` (`dmarket-bid`), so
// metrics, latest prices and the (item, source, time) key never mix a bid with an ask.

#include "skinpulse/sdk/types.hpp"

#include "catalog/Catalog.hpp"
#include "currency/RateBook.hpp"
#include "store/Records.hpp"

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace skinpulse::ingest {

using RejectionCounts = std::map<std::string, std::size_t>;

/// The rejection reason of a quote in a currency the daemon has no USD rate for.
inline constexpr std::string_view kRejectedNoRate = "no_rate";
/// The rejection reason of a name no item can have (catalog/ItemName.hpp: not printable
/// UTF-8, over 256 bytes, a '#' token, not an item name's grammar): never auto-added.
inline constexpr std::string_view kRejectedJunkName = "junk name";

struct NormalisedBatch {
  std::vector<store::PricePoint> points;
  RejectionCounts rejected;
  std::vector<std::string> unknown_names;  ///< trimmed, for [catalog] auto_add
  /// Rows folded into another row of the same (item, source, time): counted, not rejected.
  std::size_t merged = 0;
  /// Base items that variant rows priced in this batch: their points of one source are
  /// merged whatever their times (mergeSameObservations).
  std::vector<std::int64_t> variant_bases;
  /// https image URLs of accepted quotes whose item has no image yet (one per item).
  std::vector<std::pair<std::int64_t, std::string>> images;
};

/// Whose observations these are.
struct NormaliseInput {
  const std::string& source;  ///< instance name, the source of points of its own kind
  /// Used for observations without their own time; observations more than five minutes
  /// in the future of it are refused (a clock or unit error).
  std::int64_t poll_time = 0;
  /// The instance's kind: that of every Observation and of quotes without their own.
  sdk::PriceKind kind = sdk::PriceKind::kAsk;
  /// A polled instance files other kinds under NAME-<kind>; a backfill line names its own
  /// source, which is kept whatever its kind.
  bool series_per_kind = true;
  /// The rates non-USD quotes convert with (one snapshot per batch); null: none, every
  /// non-USD quote is rejected as `no_rate`.
  const currency::RateBook::Rates* rates = nullptr;
};

/// Trims ASCII whitespace and NBSP at both ends; the name is otherwise kept as is. A view
/// into `name`: a cycle normalises 100,000 names and copies none of them.
std::string_view trimName(std::string_view name);

/// Normalises ABI 1.0-shaped observations, then ABI 1.3 quotes, into one batch, then
/// merges the rows of one (item, source, time).
NormalisedBatch normalise(const NormaliseInput& input,
                          const std::vector<sdk::Observation>& observations,
                          const std::vector<sdk::VariantQuote>& quotes,
                          const catalog::CatalogSnapshot& catalog);

/// One quote into `batch` (appended to its points, or counted in its rejections): a
/// backfill normalises its lines one at a time, so a million of them are never held. A
/// quote naming a known variant yields its variant item's point only: a backfill line is
/// one series' history, not a poll of every row of the name.
void normaliseQuote(const NormaliseInput& input, const sdk::VariantQuote& quote,
                    const catalog::CatalogSnapshot& catalog, NormalisedBatch& batch);

/// Merges the points of `batch` that share (item, source, time), or (item, source) for an
/// item of `batch.variant_bases`, keeping the first one's place: the lowest price, the
/// newest time, volumes summed, listings summed (unknown when none says). Each folded
/// point counts in `batch.merged`.
void mergeSameObservations(NormalisedBatch& batch);

/// Observations only, kind ask.
NormalisedBatch normalise(const std::string& source, std::int64_t poll_time,
                          const std::vector<sdk::Observation>& observations,
                          const catalog::CatalogSnapshot& catalog);

}  // namespace skinpulse::ingest
