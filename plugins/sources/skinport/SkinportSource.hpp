#pragma once

// skinport: one GET {url}/v1/items?app_id=730&currency=USD per poll (the whole catalogue
// in one Brotli-compressed JSON array). Each row becomes one MarketQuote (SDK ABI 1.2): the
// price is `min_price` (lowest current listing, USD major units; kind left to the instance,
// default ask), falling back to `suggested_price` (kind reference); `quantity` is the
// number of current listings and goes to `listings` (Skinport has no traded volume on this
// endpoint: volume stays 0); `updated_at` is the observation time.

#include "skinpulse/sdk/host.hpp"
#include "skinpulse/sdk/plugin.hpp"
#include "skinpulse/sdk/source.hpp"

#include <chrono>
#include <cstddef>
#include <string>

namespace skinpulse::plugins::skinport {

inline constexpr skinpulse_config_key kConfigKeys[] = {
    {"url", "base address of the Skinport API, e.g. https://api.skinport.com", 1},
    {"currency", "price currency; only USD is supported (default USD)", 0},
    {"max_bytes", "largest accepted decoded response in bytes (default 33554432)", 0},
    {"request_timeout_seconds", "timeout of the HTTP request in seconds (default 30)", 0},
};

class SkinportSource final : public sdk::QuoteSource {
 public:
  /// Reads and validates the configuration; throws std::invalid_argument naming the key.
  explicit SkinportSource(sdk::Host& host);

  sdk::QuoteBatch fetchQuotes() override;

  /// The request fetchQuotes() sends (exposed for tests and diagnostics).
  const std::string& requestUrl() const { return request_url_; }

 private:
  sdk::Host& host_;
  std::string request_url_;
  std::size_t max_bytes_ = 0;
  std::chrono::milliseconds timeout_{30000};
};

}  // namespace skinpulse::plugins::skinport
