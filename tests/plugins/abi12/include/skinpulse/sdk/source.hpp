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

}  // namespace skinpulse::sdk
