#pragma once

// One poll of a market-source instance as the daemon sees it since SDK ABI 1.2: always a
// QuoteBatch. A QuoteSource (ABI 1.2) is called through its descriptor's fetch_quotes
// entry; an ABI 1.0/1.1 source through MarketSource::fetch(), its observations adapted
// (kind unset, no listings, USD, no image). docs/adr/0011-sdk-abi-1-2.md.
//
// Called by the scheduler on a fetch thread; the same rules as the plugin's own calls
// (never concurrently for one instance). An exception from an old plugin's fetch()
// propagates; fetch_quotes never throws.

#include "skinpulse/sdk/plugin.hpp"
#include "skinpulse/sdk/source.hpp"

namespace skinpulse {

/// `source` is the object create() returned (as a MarketSource); `fetch_quotes` its
/// PluginInstance::fetchQuotes(), nullptr for sources older than ABI 1.2.
sdk::QuoteBatch fetchQuotes(sdk::MarketSource& source, skinpulse_fetch_quotes_fn fetch_quotes);

/// An ABI 1.0/1.1 observation as a quote: the same name, price, volume and time, kind
/// left to the instance, no listings, USD, no image.
sdk::MarketQuote toQuote(sdk::Observation&& observation);

}  // namespace skinpulse
