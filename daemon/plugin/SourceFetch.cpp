#include "plugin/SourceFetch.hpp"

#include <utility>

namespace skinpulse::plugin {

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

sdk::PollReport pollSource(sdk::MarketSource& source, const SourceEntries& entries) {
  sdk::PollReport report;
  if (entries.poll != nullptr) {
    entries.poll(static_cast<void*>(&source), &report);
    return report;
  }
  sdk::QuoteBatch batch = fetchQuotes(source, entries.fetch_quotes);
  report.status = std::move(batch.status);
  report.retry_after_seconds = batch.retry_after_seconds;
  report.rows_read = static_cast<std::int64_t>(batch.quotes.size());
  report.quotes.reserve(batch.quotes.size());
  for (sdk::MarketQuote& quote : batch.quotes) {
    sdk::VariantQuote variant_quote;
    static_cast<sdk::MarketQuote&>(variant_quote) = std::move(quote);
    report.quotes.push_back(std::move(variant_quote));
  }
  return report;
}

}  // namespace skinpulse::plugin
