// Test plugin: an SDK ABI 1.3 ReportingSource, called by the daemon through the
// descriptor's poll entry. Key `mode` says what its polls report:
//   good      two quotes (one naming its variant) of 5 rows read, 3 skipped (no_price×2,
//             locked×1)
//   unusable  4 rows read, all skipped as no_price, no quote (a feed it no longer reads)
//   partial   the asks' quote, and the part "bids" failed as unavailable
//   empty     nothing read, nothing returned (an empty market)
//   throws    poll() throws (the SDK boundary turns it into kInternal)

#include "skinpulse/sdk/sdk.hpp"

#include <stdexcept>
#include <string>
#include <utility>

namespace {

namespace sdk = skinpulse::sdk;

const skinpulse_config_key kKeys[] = {
    {"mode", "good, unusable, partial, empty or throws", 1},
};

sdk::VariantQuote quote(const std::string& name, std::int64_t cents, std::string variant = {}) {
  sdk::VariantQuote q;
  q.market_hash_name = name;
  q.price.form = sdk::QuotedPrice::Form::kCents;
  q.price.cents = cents;
  q.variant = std::move(variant);
  return q;
}

class ReportingSource final : public sdk::ReportingSource {
 public:
  explicit ReportingSource(sdk::Host& host) : mode_(host.config().get("mode").value_or("")) {
    if (mode_ != "good" && mode_ != "unusable" && mode_ != "partial" && mode_ != "empty" &&
        mode_ != "throws") {
      throw std::invalid_argument("mode must be good, unusable, partial, empty or throws");
    }
  }

  sdk::PollReport poll() override {
    sdk::PollReport report;
    if (mode_ == "throws") throw std::runtime_error("the feed changed shape");
    if (mode_ == "good") {
      report.rows_read = 5;
      report.quotes.push_back(quote("★ Karambit | Doppler (Factory New)", 250000, "Ruby"));
      report.quotes.push_back(quote("Recoil Case", 41));
      report.skipped = {{"no_price", 2}, {"locked", 1}};
    } else if (mode_ == "unusable") {
      report.rows_read = 4;
      report.skipped = {{"no_price", 4}};
    } else if (mode_ == "partial") {
      report.rows_read = 1;
      report.quotes.push_back(quote("Recoil Case", 41));
      report.failed_parts.push_back(
          {"bids", sdk::Status(sdk::Status::Code::kUnavailable, "HTTP 503")});
    }
    return report;
  }

 private:
  std::string mode_;
};

}  // namespace

SKINPULSE_DECLARE_PLUGIN(MarketSource, ReportingSource, "reporting", "1.3.0",
                         "test ABI 1.3 reporting source", kKeys)
