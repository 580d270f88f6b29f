#pragma once

// Since ABI 1.2 (docs/adr/0016-currency-rates.md): RateSource, a plugin that reports
// exchange rates against the US dollar. The daemon converts non-USD quotes to USD cents at
// ingest with the newest rate of their currency, and converts USD amounts into the
// currency an API client asks for (`currency=EUR`).
//
// The host calls fetchRates() from its own schedule (`interval_seconds` of the instance's
// `[rates.NAME]` section, default 21600), never concurrently for one instance, on a worker
// thread. The same rules as a market source's fetch: use Host::http() with a timeout and a
// body cap, never sleep, spawn threads or retry in a loop. An exception is caught by the
// host and counts as a failed poll.
//
// A rate is an exact fraction, not a double: "0.95" is 95/100, and the ECB's EUR-based
// 162.41 JPY and 1.0512 USD make 16241·10000 / (100·10512) JPY per USD. The daemon rounds
// once, at the end of a conversion, so a price never carries a binary rounding error.

#include "skinpulse/sdk/status.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace skinpulse::sdk {

/// Units of `currency` per 1 US dollar, as numerator / denominator (both > 0), valid
/// from `time` (Unix seconds, UTC; the upstream's own date, not the poll time).
struct CurrencyRate {
  std::string currency;  ///< ISO 4217 code, three upper-case letters
  std::int64_t numerator = 0;
  std::int64_t denominator = 1;
  std::int64_t time = 0;
};

/// What one poll of a RateSource produced. On failure `rates` is ignored; with
/// Status::Code::kRateLimited, `retry_after_seconds` (when known) delays the next poll.
struct RateBatch {
  Status status;
  std::vector<CurrencyRate> rates;
  std::optional<std::int64_t> retry_after_seconds;
};

class RateSource {
 public:
  virtual RateBatch fetchRates() = 0;

 protected:
  // Instances are destroyed by the descriptor's destroy(), never by the host directly.
  virtual ~RateSource() = default;
};

/// An exact fraction read from a plain decimal ("151.2", "0.95", "1"; no sign, no
/// exponent, at most 15 significant digits): {1512, 10}. nullopt for anything else or
/// for zero. A helper for plugins, so each reads decimals the same exact way.
struct DecimalFraction {
  std::int64_t numerator = 0;
  std::int64_t denominator = 1;
};
inline std::optional<DecimalFraction> parseDecimalFraction(std::string_view text) {
  DecimalFraction out;
  int digits = 0;
  bool point = false;
  bool any = false;
  for (char c : text) {
    if (c == '.') {
      if (point) return std::nullopt;
      point = true;
      continue;
    }
    if (c < '0' || c > '9') return std::nullopt;
    any = true;
    if (out.numerator != 0 || c != '0') ++digits;
    if (digits > 15) return std::nullopt;
    out.numerator = out.numerator * 10 + (c - '0');
    if (point) {
      if (out.denominator > INT64_C(100000000000000)) return std::nullopt;
      out.denominator *= 10;
    }
  }
  if (!any || out.numerator == 0 || text.front() == '.' || text.back() == '.') return std::nullopt;
  return out;
}

}  // namespace skinpulse::sdk
