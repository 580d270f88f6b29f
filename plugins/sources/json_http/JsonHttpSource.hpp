#pragma once

// json_http: GETs `url` and reads a JSON array of rows
//   [{"market_hash_name": "...", "price": 1234, "volume": 5, "time": "2026-11-22T10:15:00Z"}]
// Prices are handed to the host as cents, major units or text; the host normalises them.

#include "skinpulse/sdk/host.hpp"
#include "skinpulse/sdk/source.hpp"

#include "SourceSupport.hpp"

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace skinpulse::plugins::json_http {

/// Parses the `headers` key: `Name: value; Name2: value2`. Empty segments are ignored.
/// Throws std::runtime_error (naming the header, never its value) when malformed.
sdk::Fields parseHeaderList(std::string_view text);

/// ISO 8601 date-time, e.g. 2026-11-22T10:15:00Z, 2026-11-22 10:15:00.250+01:00,
/// 2026-11-22T10:15Z or 2026-11-22 (midnight). Without a zone the time is UTC.
std::optional<std::int64_t> parseIsoTime(std::string_view text);

/// Retry-After: delta-seconds or an HTTP-date, relative to `now`; clamped to [0, 86400]
/// (the helper all bundled sources share).
inline std::optional<std::int64_t> parseRetryAfter(std::string_view value, std::int64_t now) {
  return support::retryAfterSeconds(value, now);
}

struct JsonHttpSettings {
  std::string url;
  bool major_units = false;  ///< price_unit = major
  std::size_t max_bytes = 16u * 1024u * 1024u;
  sdk::Fields headers;
};

/// Reads and validates the instance's keys; throws std::runtime_error naming the key.
JsonHttpSettings readSettings(const sdk::Config& config);

/// Counts of one parse, logged once per fetch.
struct RowCounts {
  std::size_t rows = 0;
  std::size_t bad_row = 0;  ///< not an object
  std::size_t bad_name = 0;
  std::size_t bad_price = 0;
  std::size_t bad_volume = 0;
  std::size_t bad_time = 0;
  std::size_t skipped() const { return bad_row + bad_name + bad_price + bad_volume + bad_time; }
};

/// Parses a response body. Status kMalformed for invalid JSON or a non-array top level,
/// or when the array has rows and none of them is usable.
sdk::FetchResult parseBody(const std::string& body, bool major_units, RowCounts& counts);

class JsonHttpSource final : public sdk::MarketSource {
 public:
  static constexpr std::chrono::seconds kTimeout{30};

  explicit JsonHttpSource(sdk::Host& host);

  sdk::FetchResult fetch() override;

 private:
  sdk::FetchResult fetchOnce();

  sdk::Host& host_;
  JsonHttpSettings settings_;
};

}  // namespace skinpulse::plugins::json_http
