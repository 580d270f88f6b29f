#pragma once

// MetricSet: the metric plugins of a daemon, in the order their values appear in the
// Volatility metrics object, and the fields they produce.
//
// Each metric is asked once, at construction, for the names it returns (on a probe
// window of three points). Those names are the layout of every object afterwards: a name
// is `field` or `group.field` ([a-z0-9_]+), unique across all metrics, and none of the
// host's own fields (item_id, window, source, samples, computed_at). A metric that breaks
// these rules, or throws on the probe, is refused at start with a message naming it.
// Fields of one group are rendered together as a nested object, at the place the group
// first appears.

#include "skinpulse/sdk/metric.hpp"

#include <atomic>
#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace skinpulse::metrics {

class MetricSet {
 public:
  struct Entry {
    std::string instance;  ///< for messages: the `[metric.NAME]` name
    const sdk::Metric* metric = nullptr;
  };

  struct Field {
    std::string name;   ///< as the metric returns it, e.g. "bollinger.upper"
    std::string group;  ///< "bollinger", or "" for a top-level field
    std::string key;    ///< "upper", or the whole name for a top-level field
  };

  /// Throws std::invalid_argument naming the instance when a metric's names break the
  /// rules above.
  explicit MetricSet(std::vector<Entry> metrics);
  MetricSet(MetricSet&&) noexcept;
  ~MetricSet();

  /// In rendering order: the fields of one group are adjacent.
  const std::vector<Field>& fields() const { return fields_; }
  /// Position of `name` in fields(), if some metric returns it.
  std::optional<std::size_t> find(std::string_view name) const;

  /// Runs every metric on `stats`; `values` gets one number per field, NaN where a metric
  /// threw or left a name out (logged once per metric). Thread-safe.
  void evaluate(const sdk::WindowStats& stats, std::vector<double>& values) const;

 private:
  struct Slot {
    std::size_t field;     ///< index into fields_
    std::size_t position;  ///< where the metric returned it at the probe
  };

  void fail(std::size_t metric, const std::string& why) const;

  std::vector<Entry> metrics_;
  std::vector<Field> fields_;
  std::vector<std::vector<Slot>> slots_;  ///< per metric
  std::unique_ptr<std::atomic<bool>[]> reported_;
};

/// The host's own fields of a Volatility metrics object; no metric may return them.
bool isReservedFieldName(std::string_view name);

}  // namespace skinpulse::metrics
