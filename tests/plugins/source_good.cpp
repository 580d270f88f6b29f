// Test plugin: a source that GETs its `url` through the host and answers one fixed
// observation whose price text carries its `currency`.

#include "skinpulse/sdk/sdk.hpp"

#include <chrono>
#include <stdexcept>
#include <string>
#include <utility>

namespace {

namespace sdk = skinpulse::sdk;

class GoodSource final : public sdk::MarketSource {
 public:
  explicit GoodSource(sdk::Host& host)
      : host_(host),
        url_(host.config().getString("url", "")),
        currency_(host.config().getString("currency", "USD")) {
    if (url_.empty()) throw std::invalid_argument("url must not be empty");
  }

  sdk::FetchResult fetch() override {
    host_.logger().info("fetching " + url_);
    sdk::HttpRequest request;
    request.url = url_;
    request.timeout = std::chrono::milliseconds(5000);
    const sdk::HttpResponse response = host_.http().send(request);
    sdk::FetchResult result;
    if (response.error != sdk::HttpResponse::Error::kNone || response.status != 200) {
      result.status = sdk::Status(sdk::Status::Code::kUnavailable,
                                  "upstream answered " + std::to_string(response.status));
      return result;
    }
    sdk::Observation observation;
    observation.market_hash_name = "AK-47 | Redline (Field-Tested)";
    observation.price.form = sdk::QuotedPrice::Form::kText;
    observation.price.text = "12.34 " + currency_;
    observation.volume = 7;
    observation.observed_at = host_.clock().nowUnixSeconds();
    result.observations.push_back(std::move(observation));
    return result;
  }

 private:
  sdk::Host& host_;
  std::string url_;
  std::string currency_;
};

const skinpulse_config_key kKeys[] = {
    {"url", "upstream price list URL", 1},
    {"currency", "currency code put in the price text (default USD)", 0},
};

}  // namespace

SKINPULSE_DECLARE_PLUGIN(MarketSource, GoodSource, "good", "1.2.3", "test source", kKeys)
