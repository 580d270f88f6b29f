// Test plugin built against the frozen SDK ABI 1.1 headers in ./include (copied from
// sdk/include before ABI 1.2): a MarketSource as every plugin was written before
// MarketQuote existed. The daemon of ABI 1.2 must load it, adapt its observations and store
// them (tests/unit/ingest/SdkCompatibilityTest.cpp). Never edit ./include.

#include "skinpulse/sdk/sdk.hpp"

#include <string>
#include <utility>

static_assert(SKINPULSE_SDK_ABI_MAJOR == 1 && SKINPULSE_SDK_ABI_MINOR == 1,
              "source_legacy must be built against the frozen ABI 1.1 headers");

namespace {

namespace sdk = skinpulse::sdk;

class LegacySource final : public sdk::MarketSource {
 public:
  explicit LegacySource(sdk::Host& host) : host_(host) {}

  sdk::FetchResult fetch() override {
    sdk::FetchResult result;
    sdk::Observation cents;
    cents.market_hash_name = "AK-47 | Redline (Field-Tested)";
    cents.price.form = sdk::QuotedPrice::Form::kCents;
    cents.price.cents = 4210;
    cents.volume = 17;
    cents.observed_at = host_.clock().nowUnixSeconds() - 60;
    result.observations.push_back(std::move(cents));
    sdk::Observation text;
    text.market_hash_name = "  Recoil Case ";
    text.price.form = sdk::QuotedPrice::Form::kText;
    text.price.text = "$0.47";
    result.observations.push_back(std::move(text));
    return result;
  }

 private:
  sdk::Host& host_;
};

}  // namespace

SKINPULSE_DECLARE_PLUGIN(MarketSource, LegacySource, "legacy", "1.1.0",
                         "test source built against SDK ABI 1.1", nullptr)
