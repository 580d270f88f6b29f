#include "ingest/PollHealth.hpp"

#include "common/Time.hpp"

#include <algorithm>
#include <vector>

namespace skinpulse::ingest {
namespace {

constexpr std::size_t kMaxLabelBytes = 48;

std::vector<std::pair<std::string, std::int64_t>> byCount(const sdk::SkipCounts& skipped) {
  std::map<std::string, std::int64_t> merged;  // a plugin may name a reason twice
  for (const auto& [reason, count] : skipped) merged[reason] += std::max<std::int64_t>(0, count);
  std::vector<std::pair<std::string, std::int64_t>> sorted(merged.begin(), merged.end());
  std::stable_sort(sorted.begin(), sorted.end(),
                   [](const auto& a, const auto& b) { return a.second > b.second; });
  return sorted;
}

}  // namespace

std::string skipSummary(const sdk::SkipCounts& skipped, std::size_t limit) {
  std::string text;
  std::size_t shown = 0;
  for (const auto& [reason, count] : byCount(skipped)) {
    if (count == 0) continue;
    if (shown == limit) {
      text += ", …";
      break;
    }
    if (shown++ > 0) text += ", ";
    text += reason + "×" + std::to_string(count);
  }
  return text;
}

std::int64_t totalSkipped(const sdk::SkipCounts& skipped) {
  std::int64_t total = 0;
  for (const auto& entry : skipped) total += std::max<std::int64_t>(0, entry.second);
  return total;
}

std::optional<std::string> unusableReportError(const sdk::PollReport& report) {
  if (!report.status.isOk() || !report.quotes.empty()) return std::nullopt;
  const std::int64_t skipped = totalSkipped(report.skipped);
  if (report.rows_read <= 0 && skipped == 0) return std::nullopt;  // an empty market
  std::string error = std::string(kMalformedResponse) +
                      ": no usable row: " + std::to_string(std::max(report.rows_read, skipped)) +
                      " read";
  if (skipped > 0) error += ", skipped: " + skipSummary(report.skipped);
  for (const auto& part : report.failed_parts) {
    error += "; " + part.part + " failed: " + part.status.message();
  }
  return error;
}

std::optional<std::string> mostlySkippedWarning(const sdk::PollReport& report) {
  const std::int64_t skipped = totalSkipped(report.skipped);
  const std::int64_t read = std::max(report.rows_read, skipped);
  if (skipped == 0 || skipped * 2 <= read) return std::nullopt;
  const auto top = byCount(report.skipped).front();
  return std::to_string(skipped) + " of " + std::to_string(read) + " row(s) skipped, mostly " +
         top.first + " (" + std::to_string(top.second) + ")";
}

std::string BoundedLabels::admit(std::string_view value) {
  const bool printable =
      !value.empty() && value.size() <= kMaxLabelBytes &&
      std::all_of(value.begin(), value.end(), [](char c) { return c >= 0x20 && c < 0x7f; });
  if (!printable) return "other";
  if (seen_.find(value) != seen_.end()) return std::string(value);
  if (seen_.size() >= capacity_) return "other";
  return *seen_.emplace(value).first;
}

namespace {

void writeCounts(common::JsonWriter& json, const std::map<std::string, std::uint64_t>& counts) {
  json.beginObject();
  for (const auto& [reason, count] : counts)
    json.key(reason).value(static_cast<std::int64_t>(count));
  json.endObject();
}

}  // namespace

void writePollCounts(common::JsonWriter& json, const PollCounts& counts) {
  json.key("rows_read").value(static_cast<std::int64_t>(counts.rows_read)).key("rows_skipped");
  writeCounts(json, counts.skipped);
  json.key("last_poll_rows").beginObject().key("read").value(counts.last_rows_read).key("skipped");
  writeCounts(json, counts.last_skipped);
  json.endObject()
      .key("part_failures")
      .value(static_cast<std::int64_t>(counts.part_failures))
      .key("last_part_failure");
  if (counts.last_part_failure_at) {
    json.beginObject()
        .key("error")
        .value(counts.last_part_failure)
        .key("time")
        .value(time::formatIso8601(*counts.last_part_failure_at))
        .endObject();
  } else {
    json.null();
  }
}

}  // namespace skinpulse::ingest
