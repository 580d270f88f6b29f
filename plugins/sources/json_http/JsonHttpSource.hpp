#pragma once

// json_http: GETs `url` and maps any keyless JSON feed to quotes by configuration
// (plugins/sources/json_http/README.md). `items_path` points at an array of item objects
// or at an object keyed by market_hash_name; `name_field`, `price_field`, `volume_field`,
// `listings_field` and `time_field` say where each value is (a member name or a JSON
// pointer); `price_unit` and `currency` say what the numbers mean. The price kind is the
// instance's `kind` key, which the daemon reads (docs/adr/0011-sdk-abi-1-2.md).
// `variant_field` and `variant_prices_field` name a row's variant or its per-variant prices
// (csgo-trader's `doppler` objects). A price found as an object is read through its
// `price` or `starting_at.price` (the shapes the csgo-trader files use).
// An SDK ABI 1.3 ReportingSource; one poll at a time (the SDK's rule), no state between.

#include "skinpulse/sdk/host.hpp"
#include "skinpulse/sdk/source.hpp"

#include "JsonMapping.hpp"
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

/// Retry-After: delta-seconds or an HTTP-date, relative to `now`; clamped to [0, 86400]
/// (the helper all bundled sources share).
inline std::optional<std::int64_t> parseRetryAfter(std::string_view value, std::int64_t now) {
  return support::retryAfterSeconds(value, now);
}

/// The default body cap: bulk feeds (the csgo-trader mirror files) run to tens of MiB.
inline constexpr std::size_t kDefaultMaxBytes = 64u * 1024u * 1024u;

struct JsonHttpSettings {
  std::string url;
  std::size_t max_bytes = kDefaultMaxBytes;
  sdk::Fields headers;
  Mapping mapping;  ///< README "Mapping"; the defaults are readSettings()'s
};

/// Reads and validates the instance's keys; throws std::runtime_error naming the key.
JsonHttpSettings readSettings(const sdk::Config& config);

/// Parses a response body with `mapping`. Status kMalformed for invalid JSON, nesting
/// deeper than 64, an items_path that is not an array or object, an unreadable top-level
/// time, or when there are items and none of them is usable.
sdk::PollReport parseBody(const std::string& body, const Mapping& mapping, RowCounts& counts);

class JsonHttpSource final : public sdk::ReportingSource {
 public:
  static constexpr std::chrono::seconds kTimeout{30};

  explicit JsonHttpSource(sdk::Host& host);

  sdk::PollReport poll() override;

 private:
  sdk::PollReport fetchOnce();

  sdk::Host& host_;
  JsonHttpSettings settings_;
};

}  // namespace skinpulse::plugins::json_http
