// Test plugin built against the frozen SDK ABI 1.2 headers in ./include (see README.md): a
// QuoteSource as plugins were written before PollReport existed. The daemon of ABI 1.3
// must load it, call it through the descriptor's fetch_quotes entry and turn its batch
// into a PollReport (tests/unit/plugin/PollReportTest.cpp). Never edit ./include.

#include "skinpulse/sdk/sdk.hpp"

#include <string>
#include <utility>

static_assert(SKINPULSE_SDK_ABI_MAJOR == 1 && SKINPULSE_SDK_ABI_MINOR == 2,
              "source_quotes12 must be built against the frozen ABI 1.2 headers");

namespace {

namespace sdk = skinpulse::sdk;

class Quotes12Source final : public sdk::QuoteSource {
 public:
  explicit Quotes12Source(sdk::Host& host) : host_(host) {}

  sdk::QuoteBatch fetchQuotes() override {
    sdk::QuoteBatch batch;
    sdk::MarketQuote ask;
    ask.market_hash_name = "AK-47 | Redline (Field-Tested)";
    ask.price.form = sdk::QuotedPrice::Form::kCents;
    ask.price.cents = 4100;
    ask.listings = 311;
    ask.observed_at = host_.clock().nowUnixSeconds() - 30;
    batch.quotes.push_back(std::move(ask));
    sdk::MarketQuote bid;
    bid.market_hash_name = "Recoil Case";
    bid.price.form = sdk::QuotedPrice::Form::kText;
    bid.price.text = "$0.41";
    bid.kind = sdk::PriceKind::kBid;
    batch.quotes.push_back(std::move(bid));
    return batch;
  }

 private:
  sdk::Host& host_;
};

}  // namespace

SKINPULSE_DECLARE_PLUGIN(MarketSource, Quotes12Source, "quotes12", "1.2.0",
                         "test source frozen at SDK ABI 1.2", nullptr)
