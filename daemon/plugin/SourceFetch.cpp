#include "plugin/SourceFetch.hpp"

#include <utility>

namespace skinpulse {

sdk::MarketQuote toQuote(sdk::Observation&& observation) {
  sdk::MarketQuote quote;
  quote.market_hash_name = std::move(observation.market_hash_name);
  quote.price = std::move(observation.price);
  quote.volume = observation.volume;
  quote.observed_at = observation.observed_at;
  return quote;
}

sdk::QuoteBatch fetchQuotes(sdk::MarketSource& source, skinpulse_fetch_quotes_fn fetch_quotes) {
  sdk::QuoteBatch batch;
  if (fetch_quotes != nullptr) {
    // The SDK passes instances across as static_cast<void*>(MarketSource*), both ways.
    fetch_quotes(static_cast<void*>(&source), &batch);
    return batch;
  }
  sdk::FetchResult result = source.fetch();
  batch.status = std::move(result.status);
  batch.retry_after_seconds = result.retry_after_seconds;
  batch.quotes.reserve(result.observations.size());
  for (auto& observation : result.observations)
    batch.quotes.push_back(toQuote(std::move(observation)));
  return batch;
}

}  // namespace skinpulse
