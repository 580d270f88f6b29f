#pragma once

// One poll of a market-source instance as the daemon sees it since SDK ABI 1.3: always a
// PollReport, whatever ABI the plugin was built against, so the scheduler has one shape
// (docs/adr/0022-sdk-abi-1-3.md):
//  - a ReportingSource (ABI 1.3) is called through its descriptor's poll entry and says
//    itself what it read, skipped and failed to read;
//  - a QuoteSource (ABI 1.2) through fetch_quotes; an ABI 1.0/1.1 source through
//    MarketSource::fetch(), its observations adapted (kind unset, no listings, USD, no
//    image). Neither can say what it read: rows_read is the number of quotes it returned
//    and nothing is skipped, so an empty answer from them stays an empty market.
//
// Called by the scheduler on a fetch thread; the same rules as the plugin's own calls
// (never concurrently for one instance). An exception from an old plugin's fetch()
// propagates; fetch_quotes and poll never throw.

#include "skinpulse/sdk/plugin.hpp"
#include "skinpulse/sdk/source.hpp"

namespace skinpulse::plugin {

/// The descriptor entries through which a source instance is called; both nullptr for
/// ABI 1.0/1.1 sources (PluginInstance::fetchQuotes() and pollEntry()).
struct SourceEntries {
  skinpulse_fetch_quotes_fn fetch_quotes = nullptr;
  skinpulse_poll_fn poll = nullptr;
};

/// One poll of `source` (the object create() returned, as a MarketSource) through the
/// newest entry it has.
sdk::PollReport pollSource(sdk::MarketSource& source, const SourceEntries& entries);

/// `source` is the object create() returned (as a MarketSource); `fetch_quotes` its
/// PluginInstance::fetchQuotes(), nullptr for sources older than ABI 1.2.
sdk::QuoteBatch fetchQuotes(sdk::MarketSource& source, skinpulse_fetch_quotes_fn fetch_quotes);

/// An ABI 1.0/1.1 observation as a quote: the same name, price, volume and time, kind
/// left to the instance, no listings, USD, no image.
sdk::MarketQuote toQuote(sdk::Observation&& observation);

}  // namespace skinpulse::plugin
