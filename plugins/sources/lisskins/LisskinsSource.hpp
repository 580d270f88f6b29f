#pragma once

// lisskins: one GET of lis-skins' full CS2 export per poll
// (https://lis-skins.com/market_export_json/api_csgo_full.json, USD; reported from 173 MB /
// 2.3 M lots up to ~860 MB). The body is never held: it streams through the host
// (HttpClient::stream, SDK ABI 1.2) into StreamJsonParser and ListingReducer, which keep 4
// bytes per listing, and each (item, variant) becomes one VariantQuote: the price is the
// configured statistic of the lots a buyer can take now (trade-locked lots, `unlock_at` in
// the future, are skipped as `locked`), `listings` their count, `variant` from the lots'
// `item_paint_index`, `observed_at` the export's `last_update`, kind left to the instance
// (default ask). A document that is malformed or cut short fails the whole poll as
// kMalformed: no partial prices. An SDK ABI 1.3 ReportingSource: rows read = lots read.

#include "skinpulse/sdk/host.hpp"
#include "skinpulse/sdk/plugin.hpp"
#include "skinpulse/sdk/source.hpp"

#include "ListingReducer.hpp"
#include "StreamJsonParser.hpp"

#include <chrono>
#include <cstddef>
#include <string>
#include <string_view>

namespace skinpulse::plugins::lisskins {

inline constexpr skinpulse_config_key kConfigKeys[] = {
    {"url",
     "address of the export (default "
     "https://lis-skins.com/market_export_json/api_csgo_full.json)",
     0},
    {"price_statistic", "the price of an item: min, p05 or median of its listings (default p05)",
     0},
    {"max_bytes", "largest accepted decoded export in bytes (default 1073741824 = 1 GiB)", 0},
    {"request_timeout_seconds", "timeout of the whole download in seconds (default 570)", 0},
};

enum class PriceStatistic { kMin, kP05, kMedian };

/// "min", "p05" or "median"; nullopt otherwise.
std::optional<PriceStatistic> parsePriceStatistic(std::string_view text);

/// The default body cap: the largest export reported is ~860 MB (docs/upstreams.md).
inline constexpr std::int64_t kDefaultMaxBytes = std::int64_t{1024} * 1024 * 1024;
/// The default download timeout: 860 MB at ~1.5 MB/s, under the scheduler's 600 s cap
/// on an instance's timeout_seconds (the host abandons a fetch after that).
inline constexpr std::int64_t kDefaultTimeoutSeconds = 570;

/// The parse of one export document, fed in pieces: what poll() does with the body,
/// exposed for tests, the bench and the fuzzer.
class ExportReader {
 public:
  /// `now`: Unix seconds against which a lot's unlock_at is held.
  explicit ExportReader(std::int64_t now);

  /// False once the document is known to be malformed (stop feeding).
  bool feed(std::string_view piece) { return parser_.feed(piece); }
  /// The report for the whole document: kMalformed when it is not a complete export, or
  /// when it held lots and none a buyer can take now.
  sdk::PollReport finish(PriceStatistic statistic);

  const ReduceCounts& counts() const { return reducer_.counts(); }
  std::uint64_t bytesRead() const { return parser_.bytesRead(); }

 private:
  ListingReducer reducer_;
  StreamJsonParser parser_;
};

/// The report of a document read whole into `reducer` (summarised in place; one quote per
/// item and variant, its `statistic` as the price, its listing count, the export's time; rows
/// read and skipped per reason); kMalformed when the document had no top-level items array.
/// Shared with the bench's parser comparison.
sdk::PollReport quotesOf(ListingReducer& reducer, PriceStatistic statistic);

class LisskinsSource final : public sdk::ReportingSource {
 public:
  /// Reads and validates the configuration; throws std::invalid_argument naming the key.
  explicit LisskinsSource(sdk::Host& host);

  sdk::PollReport poll() override;

 private:
  sdk::Host& host_;
  std::string url_;
  PriceStatistic statistic_ = PriceStatistic::kP05;
  std::size_t max_bytes_ = 0;
  std::chrono::milliseconds timeout_{kDefaultTimeoutSeconds * 1000};
};

}  // namespace skinpulse::plugins::lisskins
