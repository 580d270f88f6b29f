#pragma once

// A market source that GETs one list feed per poll and maps it (FeedMapping.hpp): what
// waxpeer, bitskins, csdeals and skinport are, and what csfloat and market_csgo compose.
// pollList() is the whole poll: request with timeout and body cap, HTTP failure → status
// (429 with Retry-After, 4xx rejected, 5xx unavailable), parse with a depth limit, map, log.

#include "skinpulse/sdk/host.hpp"
#include "skinpulse/sdk/plugin.hpp"
#include "skinpulse/sdk/source.hpp"

#include "FeedMapping.hpp"

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace skinpulse::plugins::support {

/// One feed request.
struct ListRequest {
  std::string url;
  sdk::Fields headers;  ///< `Accept: application/json` is added unless one is given
  std::size_t max_bytes = 32u * 1024u * 1024u;
  std::chrono::milliseconds timeout{30000};
  std::size_t max_depth = 16;
  std::string what;       ///< for log lines, e.g. "waxpeer /v1/prices"
  std::string auth_hint;  ///< appended to a 401/403 status, e.g. "check api_key"
};

/// A list plugin's fixed facts; `url`, `max_bytes` and `request_timeout_seconds` come from
/// the instance's configuration (readListRequest).
struct ListSpec {
  std::string_view name;         ///< plugin name, for log lines
  std::string_view example_url;  ///< the real base address, for the `url` key's error
  std::string_view path;         ///< appended to the base address, query included
  std::size_t default_max_bytes = 32u * 1024u * 1024u;
  std::size_t max_depth = 16;
};

/// The request of `spec` for an instance's configuration (keys `url`, `max_bytes`,
/// `request_timeout_seconds`); throws std::invalid_argument naming a bad key.
ListRequest readListRequest(const sdk::Config& config, const ListSpec& spec);

/// One poll of one feed (see the file comment): quotes, rows read and skipped per reason.
/// Never throws.
sdk::PollReport pollList(sdk::Host& host, const ListRequest& request, const Mapping& mapping);

/// A report that failed with `status` before reading any row.
sdk::PollReport failedReport(sdk::Status status, std::optional<std::int64_t> retry_after = {});

/// The config keys every list plugin reads, for its kConfigKeys.
// clang-format off
#define SKINPULSE_LIST_SOURCE_KEYS(REAL_URL, DEFAULT_MAX_BYTES)                                 \
  {"url", "base address of the API; real: " REAL_URL, 1},                                        \
  {"max_bytes", "largest accepted response body in bytes (default " DEFAULT_MAX_BYTES ")", 0},   \
  {"request_timeout_seconds", "timeout of the HTTP request in seconds (default 30)", 0}
// clang-format on

/// The keys of a list plugin without keys of its own (waxpeer, bitskins, csdeals).
inline constexpr skinpulse_config_key kListConfigKeys[] = {
    SKINPULSE_LIST_SOURCE_KEYS("see the plugin's README.md", "33554432"),
};

/// A source that is one list feed and one mapping (SDK ABI 1.3: a ReportingSource).
class ListSource : public sdk::ReportingSource {
 public:
  ListSource(sdk::Host& host, const ListSpec& spec, Mapping mapping);

  sdk::PollReport poll() override { return pollList(host_, request_, mapping_); }

  /// The request poll() sends (exposed for tests and diagnostics).
  const std::string& requestUrl() const { return request_.url; }

 protected:
  sdk::Host& host_;
  ListRequest request_;
  Mapping mapping_;
};

/// A list source fixed at compile time: a bundled plugin is
/// `using XSource = FixedListSource<kSpec, mapping>;`.
template <const ListSpec& Spec, Mapping (*MakeMapping)()>
class FixedListSource final : public ListSource {
 public:
  explicit FixedListSource(sdk::Host& host) : ListSource(host, Spec, MakeMapping()) {}
};

}  // namespace skinpulse::plugins::support
