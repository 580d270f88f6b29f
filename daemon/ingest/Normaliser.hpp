#pragma once

// Normaliser: a source's observations → price points (docs/api.md §4): names trimmed
// and matched exactly against the catalogue, prices to positive integer cents, volume and
// listings non-negative, other currencies converted to USD cents with the newest rate of
// the RateBook (docs/api.md §12; none: rejected as `no_rate`), the source's own time or the poll
// time, the quote's kind or the instance's. Everything it drops is counted by reason, never
// silently.
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

namespace skinpulse {

using RejectionCounts = std::map<std::string, std::size_t>;

/// The rejection reason of a quote in a currency the daemon has no USD rate for.
inline constexpr std::string_view kRejectedNoRate = "no_rate";

struct NormalisedBatch {
  std::vector<PricePoint> points;
  RejectionCounts rejected;
  std::vector<std::string> unknown_names;  ///< trimmed, for [catalog] auto_add
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

/// Normalises ABI 1.0-shaped observations, then ABI 1.2 quotes, into one batch.
NormalisedBatch normalise(const NormaliseInput& input,
                          const std::vector<sdk::Observation>& observations,
                          const std::vector<sdk::MarketQuote>& quotes,
                          const CatalogSnapshot& catalog);

/// One quote into `batch` (appended to its points, or counted in its rejections): a
/// backfill normalises its lines one at a time, so a million of them are never held.
void normaliseQuote(const NormaliseInput& input, const sdk::MarketQuote& quote,
                    const CatalogSnapshot& catalog, NormalisedBatch& batch);

/// Observations only, kind ask.
NormalisedBatch normalise(const std::string& source, std::int64_t poll_time,
                          const std::vector<sdk::Observation>& observations,
                          const CatalogSnapshot& catalog);

}  // namespace skinpulse
