// Test plugin: an SDK ABI 1.2 QuoteSource, called by the daemon through the descriptor's
// fetch_quotes entry. One quote of each interesting sort: the instance's kind with a
// listing count, an explicit bid, and one in EUR (the host has no rates: no_rate).

#include "skinpulse/sdk/sdk.hpp"

#include <string>
#include <utility>

namespace {

namespace sdk = skinpulse::sdk;

sdk::MarketQuote quote(const std::string& name, std::int64_t cents) {
  sdk::MarketQuote q;
  q.market_hash_name = name;
  q.price.form = sdk::QuotedPrice::Form::kCents;
  q.price.cents = cents;
  return q;
}

class QuotesSource final : public sdk::QuoteSource {
 public:
  explicit QuotesSource(sdk::Host& host) : host_(host) {}

  sdk::QuoteBatch fetchQuotes() override {
    const std::int64_t now = host_.clock().nowUnixSeconds();
    sdk::QuoteBatch batch;
    auto ask = quote("AK-47 | Redline (Field-Tested)", 4100);
    ask.listings = 311;
    ask.image_url = "https://community.akamai.steamstatic.com/economy/image/redline";
    ask.observed_at = now - 30;
    batch.quotes.push_back(std::move(ask));
    auto bid = quote("AK-47 | Redline (Field-Tested)", 3950);
    bid.kind = sdk::PriceKind::kBid;
    bid.observed_at = now - 20;
    bid.volume = 4;
    bid.image_url = "http://insecure.example/redline.png";  // http: never used
    batch.quotes.push_back(std::move(bid));
    auto euro = quote("Recoil Case", 40);
    euro.currency = "EUR";
    batch.quotes.push_back(std::move(euro));
    return batch;
  }

 private:
  sdk::Host& host_;
};

}  // namespace

SKINPULSE_DECLARE_PLUGIN(MarketSource, QuotesSource, "quotes", "1.2.0", "test ABI 1.2 source",
                         nullptr)
