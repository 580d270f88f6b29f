#pragma once

// MarketSource: a plugin that fetches current prices from one market.
//
// The host calls fetch() from its scheduler every `interval_seconds` of the instance's
// section, never concurrently for one instance, on a worker thread. A fetch must finish
// within the HTTP timeouts it sets; it must not sleep, spawn threads or retry in a loop:
// the scheduler owns retries, back-off and Retry-After.

#include "skinpulse/sdk/status.hpp"
#include "skinpulse/sdk/types.hpp"

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

namespace skinpulse::sdk {

/// What one poll produced. On failure `observations` is ignored; with
/// Status::Code::kRateLimited, `retry_after_seconds` (when known) delays the next poll.
struct FetchResult {
  Status status;
  std::vector<Observation> observations;
  std::optional<std::int64_t> retry_after_seconds;
};

class MarketSource {
 public:
  virtual FetchResult fetch() = 0;

 protected:
  // Instances are destroyed by the descriptor's destroy(), never by the host directly.
  virtual ~MarketSource() = default;
};

/// Since ABI 1.2: what one poll of a QuoteSource produced. The same rules as FetchResult.
struct QuoteBatch {
  Status status;
  std::vector<MarketQuote> quotes;
  std::optional<std::int64_t> retry_after_seconds;
};

/// Since ABI 1.2: a market source that reports MarketQuote (kind, listings, currency,
/// image). Derive from it instead of MarketSource and implement fetchQuotes(); declare the
/// plugin as before, `SKINPULSE_DECLARE_PLUGIN(MarketSource, YourClass, ...)`: the macro
/// sees the base class and fills the descriptor's fetch_quotes entry, through which the
/// host calls fetchQuotes() (docs/adr/0011-sdk-abi-1-2.md). The same threading rules as
/// fetch(). The host never calls fetch() of a QuoteSource; it answers the quotes without
/// what an Observation cannot carry, for tools written against ABI 1.1.
class QuoteSource : public MarketSource {
 public:
  virtual QuoteBatch fetchQuotes() = 0;

  FetchResult fetch() final {
    QuoteBatch batch = fetchQuotes();
    FetchResult result;
    result.status = std::move(batch.status);
    result.retry_after_seconds = batch.retry_after_seconds;
    result.observations.reserve(batch.quotes.size());
    for (MarketQuote& quote : batch.quotes) {
      Observation observation;
      observation.market_hash_name = std::move(quote.market_hash_name);
      observation.price = std::move(quote.price);
      observation.volume = quote.volume;
      observation.observed_at = quote.observed_at;
      result.observations.push_back(std::move(observation));
    }
    return result;
  }

 protected:
  ~QuoteSource() override = default;
};

/// Since ABI 1.3: what one poll of a ReportingSource produced. The same rules as
/// QuoteBatch, and besides the quotes it says what the poll read and could not use, so that
/// the host can tell an empty market from a feed it no longer understands (docs/api.md §19):
/// a poll that read rows (`rows_read` > 0, or anything skipped) and returns no quote is a
/// failed poll (`malformed_response`) whatever its status says.
struct PollReport {
  Status status;
  std::vector<VariantQuote> quotes;
  std::optional<std::int64_t> retry_after_seconds;
  /// Rows (items, listings) the upstream's documents held, usable or not.
  std::int64_t rows_read = 0;
  /// Rows read and not used, per reason.
  SkipCounts skipped;
  /// A poll that reads several documents (asks and bids, pages) keeps what it read well
  /// when one of them fails, and names the part that failed here ("bids", "page 3"); the
  /// host counts and shows it. `status` stays OK when the other parts gave quotes.
  struct PartFailure {
    std::string part;
    Status status;
  };
  std::vector<PartFailure> failed_parts;
};

/// Since ABI 1.3: a market source that reports PollReport. Derive from it instead of
/// QuoteSource and implement poll(); declare it as before with
/// `SKINPULSE_DECLARE_PLUGIN(MarketSource, YourClass, ...)`: the macro fills the
/// descriptor's `poll` entry, through which a 1.3 host calls poll(). A 1.2 host calls
/// fetchQuotes(), which answers poll()'s quotes without their variants and counts.
class ReportingSource : public QuoteSource {
 public:
  virtual PollReport poll() = 0;

  QuoteBatch fetchQuotes() final {
    PollReport report = poll();
    QuoteBatch batch;
    batch.status = std::move(report.status);
    batch.retry_after_seconds = report.retry_after_seconds;
    batch.quotes.reserve(report.quotes.size());
    for (VariantQuote& quote : report.quotes) batch.quotes.push_back(std::move(quote));
    return batch;
  }

 protected:
  ~ReportingSource() override = default;
};

}  // namespace skinpulse::sdk
