#pragma once

// dmarket: DMarket's keyless aggregated prices, a bid and an ask per title
// (POST {url}/marketplace-api/v1/aggregated-prices with up to 100 titles), and, when a key
// is configured, the signed last sales of a few titles per poll
// (GET {url}/trade-aggregator/v1/last-sales). README.md says what, units, limits.
//
// A pass over the ~36,500 catalogue names is ~365 requests: one poll sends at most
// `requests_per_poll` of them, and a cursor (the last catalogue id priced) survives between
// polls, so successive polls price successive slices and wrap around at the end. The
// upstream's rate-limit headers stop a poll early and hold the next ones off until the
// window resets; the plugin never sleeps (the SDK's rule: the scheduler owns waiting).

#include "skinpulse/sdk/host.hpp"
#include "skinpulse/sdk/plugin.hpp"
#include "skinpulse/sdk/source.hpp"

#include "DmarketParse.hpp"
#include "Ed25519Signer.hpp"

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace skinpulse::plugins::dmarket {

inline constexpr skinpulse_config_key kConfigKeys[] = {
    {"url", "base address of the DMarket API, e.g. https://api.dmarket.com", 1},
    {"game", "DMarket game id (default a8db, Counter-Strike 2)", 0},
    {"batch_size", "titles per aggregated-prices request, 1-100 (default 100)", 0},
    {"requests_per_poll",
     "most aggregated-prices requests one poll sends (default 5); a cursor resumes the "
     "catalogue at the next poll",
     0},
    {"price_unit", "how the feed writes prices: cents (default, \"1250\" = $12.50) or major", 0},
    {"public_key",
     "DMarket public API key (hex); default: derived from secret_key, or env DMARKET_PUBLIC_KEY",
     0},
    {"secret_key",
     "DMarket secret key (hex, 64 or 32 bytes) enabling signed last-sales; default: env "
     "DMARKET_SECRET_KEY; never logged",
     0},
    {"sales_per_poll", "titles whose last sales one poll fetches when a key is set (default 5)", 0},
    {"max_bytes", "largest accepted response in bytes (default 1048576)", 0},
    {"request_timeout_seconds", "timeout of each HTTP request in seconds (default 20)", 0},
};

class DmarketSource final : public sdk::ReportingSource {
 public:
  /// Reads and validates the configuration; throws std::invalid_argument naming the key
  /// (never quoting a secret).
  explicit DmarketSource(sdk::Host& host);
  ~DmarketSource() override;

  sdk::PollReport poll() override;

  /// The JSON body of one aggregated-prices request.
  std::string aggregateBody(const std::vector<std::string>& titles) const;
  /// The headers that sign `method` `url` `body` at unix second `date` (empty without a key).
  sdk::Fields signedHeaders(const std::string& method, const std::string& url,
                            const std::string& body, std::int64_t date) const;
  /// The last catalogue id priced (0: the next poll starts at the beginning).
  std::int64_t cursor() const { return last_catalog_id_; }
  bool signedSales() const { return signer_ != nullptr; }

 private:
  struct Target {
    std::int64_t id;
    std::string name;
  };
  std::vector<Target> nextTitles(std::int64_t after, std::size_t limit) const;
  sdk::HttpResponse send(sdk::HttpRequest request);
  /// Reads the rate-limit headers of an answer; true when the window is used up (the
  /// poll stops and polls until the reset send nothing).
  bool windowExhausted(const sdk::HttpResponse& response, std::int64_t now_ms);
  void holdOff(std::int64_t now_ms, std::int64_t seconds);

  sdk::Host& host_;
  std::string base_url_;
  std::string game_;
  std::size_t batch_size_ = 100;
  std::size_t requests_per_poll_ = 5;
  std::size_t sales_per_poll_ = 5;
  PriceUnit unit_ = PriceUnit::kCents;
  std::size_t max_bytes_ = 1024 * 1024;
  std::chrono::milliseconds timeout_{20000};
  std::unique_ptr<Ed25519Signer> signer_;
  std::string public_key_;
  std::int64_t last_catalog_id_ = 0;
  std::int64_t last_sales_id_ = 0;
  std::int64_t not_before_ms_ = 0;
};

}  // namespace skinpulse::plugins::dmarket
