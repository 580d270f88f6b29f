#pragma once

// PollHealth: what one poll's report says beyond its status (docs/api.md §19), for the
// scheduler. A poll that read rows and yields no usable one is a failed poll
// (`malformed_response`): an empty market answers no rows at all, a feed the plugin no
// longer understands answers rows it cannot use. Skipped rows and failed parts are
// counted per source under bounded labels: reasons and parts come from plugins, and a
// plugin that makes up a new label per row must not grow /metrics without end.

#include "skinpulse/sdk/source.hpp"
#include "skinpulse/sdk/types.hpp"

#include "common/Json.hpp"

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>

namespace skinpulse::ingest {

/// The code of a failed poll that read rows and yields none (§19), also the first word of
/// its last_error.
inline constexpr std::string_view kMalformedResponse = "malformed_response";

/// "no_price×3, bad_price×1": the reasons by count, largest first (ties by name), at most
/// `limit` of them and "…" after.
std::string skipSummary(const sdk::SkipCounts& skipped, std::size_t limit = 5);

/// All rows skipped of the report, whatever their reason (negative counts read as 0).
std::int64_t totalSkipped(const sdk::SkipCounts& skipped);

/// Set when a report whose status is OK read rows (rows_read > 0 or anything skipped) and
/// gives no quote: "malformed_response: no usable row: 12 read, skipped: no_price×12".
std::optional<std::string> unusableReportError(const sdk::PollReport& report);

/// Set when more than half the rows read were skipped: "41 of 50 row(s) skipped, mostly
/// no_price (40)". The rows read are at least the rows skipped (a plugin that counts only
/// what it skipped still gets its warning).
std::optional<std::string> mostlySkippedWarning(const sdk::PollReport& report);

/// Admits at most `capacity` distinct label values; later new values, and values that are
/// not printable ASCII of 1..48 bytes, map to "other".
class BoundedLabels {
 public:
  explicit BoundedLabels(std::size_t capacity) : capacity_(capacity) {}
  std::string admit(std::string_view value);

 private:
  std::size_t capacity_;
  std::set<std::string, std::less<>> seen_;
};

/// What a source's polls read and could not use, since the daemon started.
struct PollCounts {
  std::uint64_t rows_read = 0;
  std::map<std::string, std::uint64_t> skipped;  ///< by (bounded) reason
  std::uint64_t part_failures = 0;
  /// The last poll's own numbers.
  std::int64_t last_rows_read = 0;
  std::map<std::string, std::uint64_t> last_skipped;
  /// "bids: upstream unavailable: HTTP 503", and when (Unix seconds); empty / unset if none.
  std::string last_part_failure;
  std::optional<std::int64_t> last_part_failure_at;
};

/// Adds, to an open JSON object, "rows_read", "rows_skipped" {reason: count} (since
/// start), "last_poll_rows" {"read", "skipped" {reason: count}}, "part_failures" and
/// "last_part_failure" (null or {"error", "time"}), for admin /readyz.
void writePollCounts(common::JsonWriter& json, const PollCounts& counts);

}  // namespace skinpulse::ingest
