#pragma once

// Evaluator: every alert rule in memory, indexed by item, tested after a cycle against
// the snapshots the API serves (latest prices, the metrics snapshot). A rule fires on
// the edge — its condition false at the last evaluation, true now — and at most once per
// cooldown_seconds (docs/api.md §13). Only the rules of the cycle's items are looked at,
// so the cost is that of the touched rules, not of all of them (bench/alerts).
//
// Not thread-safe: AlertsService serialises evaluations and rule changes.

#include "alerts/Rule.hpp"
#include "metrics/MetricsSnapshot.hpp"
#include "prices/LatestPrices.hpp"
#include "prices/PricePolicy.hpp"
#include "store/AlertStore.hpp"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace skinpulse::alerts {

/// What conditions read; every pointer outlives the evaluation.
struct Inputs {
  const prices::LatestPrices::Snapshot* latest = nullptr;
  const metrics::MetricsSnapshot* metrics = nullptr;  ///< may be null: metric conditions false
  const std::vector<std::string>* reference_order = nullptr;  ///< current_price's order
  /// Which latest prices count (PricePolicy::trusts: fresh, not flagged when outliers are
  /// excluded), as the item endpoints and the spread ranking count them. Null: every
  /// price counts.
  const prices::PricePolicy* price_policy = nullptr;
  std::int64_t now = 0;
};

/// What a firing saw, as numbers: rendered (render()) only once the evaluation is over,
/// so a cycle that fires thousands of rules does not format inside it.
struct Observed {
  double value = 0;             ///< price_*: the price; percent_change; spread_percent; the rank
  double price = 0;             ///< percent_change, bollinger_break: the newest price of the window
  double upper = 0, lower = 0;  ///< bollinger_break
  std::int64_t min_price = 0, max_price = 0;  ///< spread_above
  std::string source;                         ///< price_*: the source; spread: cheapest
  std::string other_source;                   ///< spread_above: dearest
};

struct Firing {
  std::int64_t rule_id = 0;
  std::int64_t item_id = 0;
  std::string user_id;
  Condition condition;
  Observed observed;
  std::int64_t fired_at = 0;
};

/// The payload's `observed` object and a sentence for chat channels.
struct Observation {
  std::string json;
  std::string text;
};
Observation render(const Firing& firing);

struct EvaluationResult {
  std::vector<store::AlertStateChange> changes;  ///< rules whose edge state moved (or that fired)
  std::vector<Firing> firings;
};

/// The spread of docs/api.md §12 over an item's trusted latest prices (fresh, outliers
/// left out; prices::PricePolicy::trusts): (max − min) / min × 100 over the asks, or over
/// every kind when no ask is trusted; empty with fewer than 2. The same figure as item detail's
/// `spread_percent`, with the sources of both ends for the alert's message.
struct Spread {
  double percent = 0;
  std::int64_t min = 0;
  std::int64_t max = 0;
  std::string min_source, max_source;
};
std::optional<Spread> spreadOf(const std::vector<prices::SourceLatest>& latest,
                               const Inputs& inputs);

class Evaluator {
 public:
  /// Adds or replaces the rule of `rule.id` (its state and last_fired_at as given).
  void upsert(const Rule& rule);
  void remove(std::int64_t rule_id);
  void clear();
  std::size_t size() const { return slots_.size() - free_.size(); }

  /// Every item some enabled rule watches (a reload evaluates them all).
  std::vector<std::int64_t> watchedItems() const;

  /// Evaluates the rules of `items` (each id once) and updates their edge state.
  EvaluationResult evaluate(const std::vector<std::int64_t>& items, const Inputs& inputs);

 private:
  struct Slot {
    std::int64_t id = 0;
    std::int64_t item_id = 0;
    Condition condition;
    std::int64_t cooldown_seconds = 0;
    std::int64_t last_fired_at = -1;  ///< -1: never
    bool enabled = false;
    bool state = false;
    bool used = false;
    std::string user_id;
  };
  struct ItemView;

  void unlink(std::uint32_t slot);

  std::vector<Slot> slots_;
  std::vector<std::uint32_t> free_;
  std::unordered_map<std::int64_t, std::uint32_t> by_id_;
  std::unordered_map<std::int64_t, std::vector<std::uint32_t>> by_item_;
};

}  // namespace skinpulse::alerts
