// Test plugin for the integration tests (tests/integration/test_sources_health.py): an SDK
// ABI 1.3 ReportingSource over a plain-text feed, one row per line, "<market_hash_name>
// TAB <price in cents>", fetched through the host's HTTP client from its `url`. A row
// without a price is skipped as `no_price`, one whose price is not a positive integer as
// `bad_price`; so a body of rows the plugin cannot use reads rows and returns no quote,
// which the daemon must take for a failed poll (docs/api.md §19).

#include "skinpulse/sdk/sdk.hpp"

#include <charconv>
#include <chrono>
#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>

namespace {

namespace sdk = skinpulse::sdk;

const skinpulse_config_key kKeys[] = {
    {"url", "the feed: one 'name<TAB>cents' row per line", 1},
};

constexpr std::size_t kMaxBodyBytes = 1024 * 1024;

class LinesSource final : public sdk::ReportingSource {
 public:
  explicit LinesSource(sdk::Host& host) : host_(host), url_(host.config().get("url").value_or("")) {
    if (url_.empty()) throw std::invalid_argument("url must not be empty");
  }

  sdk::PollReport poll() override {
    sdk::PollReport report;
    sdk::HttpRequest request;
    request.url = url_;
    request.timeout = std::chrono::seconds(5);
    request.max_body_bytes = kMaxBodyBytes;
    const sdk::HttpResponse response = host_.http().send(request);
    if (response.error != sdk::HttpResponse::Error::kNone) {
      report.status = sdk::Status(sdk::Status::Code::kUnavailable, response.error_message);
      return report;
    }
    if (response.status != 200) {
      report.status =
          sdk::Status(sdk::Status::Code::kUnavailable, "HTTP " + std::to_string(response.status));
      return report;
    }
    std::map<std::string, std::int64_t> skipped;
    std::string_view body = response.body;
    while (!body.empty()) {
      const std::size_t end = body.find('\n');
      std::string_view line = body.substr(0, end);
      body = end == std::string_view::npos ? std::string_view() : body.substr(end + 1);
      if (line.empty()) continue;
      ++report.rows_read;
      const std::size_t tab = line.find('\t');
      const std::string_view price =
          tab == std::string_view::npos ? std::string_view() : line.substr(tab + 1);
      if (price.empty()) {
        ++skipped["no_price"];
        continue;
      }
      std::int64_t cents = 0;
      const auto [at, error] = std::from_chars(price.data(), price.data() + price.size(), cents);
      if (error != std::errc() || at != price.data() + price.size() || cents <= 0) {
        ++skipped["bad_price"];
        continue;
      }
      sdk::VariantQuote quote;
      quote.market_hash_name = std::string(line.substr(0, tab));
      quote.price.form = sdk::QuotedPrice::Form::kCents;
      quote.price.cents = cents;
      report.quotes.push_back(std::move(quote));
    }
    report.skipped.assign(skipped.begin(), skipped.end());
    return report;
  }

 private:
  sdk::Host& host_;
  std::string url_;
};

}  // namespace

SKINPULSE_DECLARE_PLUGIN(MarketSource, LinesSource, "lines", "1.3.0",
                         "test ABI 1.3 source over a name<TAB>cents feed", kKeys)
