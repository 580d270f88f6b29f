#pragma once

// AlertsService: the alert rules of every user — stored (store/AlertStore), indexed in
// memory (Evaluator) — and the cycle observer that evaluates them. After each stored
// cycle (and after a backfill's reload) it evaluates the rules of the touched items
// against the snapshots the API serves and, in one transaction, records the edge states
// and puts one outbox row per firing and channel; the delivery workers send them.

#include "alerts/AlertsOptions.hpp"
#include "alerts/Evaluator.hpp"
#include "alerts/RuleJson.hpp"
#include "catalog/Catalog.hpp"
#include "ingest/CycleObserver.hpp"
#include "metrics/MetricsSnapshot.hpp"
#include "prices/LatestPrices.hpp"
#include "prices/PricePolicy.hpp"
#include "store/AlertStore.hpp"

#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace skinpulse::alerts {

/// The user has max_rules_per_user rules: 409 alert_limit.
class AlertLimitReached : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

using MetricsProvider = std::function<std::shared_ptr<const metrics::MetricsSnapshot>()>;

class AlertsService final : public ingest::CycleObserver {
 public:
  /// `now` gives Unix seconds; `on_deliveries` runs after new outbox rows are committed.
  /// `policy` decides which latest prices a condition trusts and current_price's order;
  /// it must outlive the service.
  AlertsService(store::AlertStore& store, const catalog::Catalog& catalog,
                const prices::LatestPrices& latest, MetricsProvider metrics,
                const prices::PricePolicy& policy, AlertsOptions options,
                std::function<std::int64_t()> now, std::function<void()> on_deliveries);

  /// Reads every rule from the store into the index (start-up, and when another
  /// instance changed rules: see syncRules()).
  void load();
  /// Reloads the rules when the store's rules revision moved by a write this instance
  /// did not make (an API call served by another instance). Evaluations call it first.
  void syncRules();

  std::vector<Rule> list(const std::string& user_id);
  /// Empty when there is no such rule or it belongs to another user.
  std::optional<Rule> get(const std::string& user_id, std::int64_t id);
  /// Throws InvalidAlert (an item not in the catalogue) or AlertLimitReached. The new
  /// rule carries its webhook secrets (shown once).
  Rule create(const std::string& user_id, const RuleInput& input);
  /// Applies the given fields; empty when not found. A new webhook target gets a new
  /// secret (returned, the only time); a kept target keeps its secret (returned blank).
  std::optional<Rule> patch(const std::string& user_id, std::int64_t id, const RuleInput& input);
  bool remove(const std::string& user_id, std::int64_t id);
  /// The newest `limit` deliveries of the user's rule; empty when not found.
  std::optional<std::vector<store::AlertDeliveryRecord>> deliveries(const std::string& user_id,
                                                                    std::int64_t id,
                                                                    std::size_t limit);

  void onCycle(const ingest::CycleUpdate& update) override;
  /// Evaluates every watched item, unless `evaluates_reloads` says no: a standby
  /// instance reloads after the polling instance's cycles, which that one evaluated.
  void onReload() override;
  void setEvaluatesReloads(std::function<bool()> evaluates) {
    evaluates_reloads_ = std::move(evaluates);
  }

  /// Evaluates the rules of `items` at `now`, records the outcome and returns how many
  /// fired.
  std::size_t evaluate(const std::vector<std::int64_t>& items, std::int64_t now);

  const AlertsOptions& options() const { return options_; }

 private:
  Rule ruleOf(const store::AlertRuleRecord& record) const;
  store::AlertRuleRecord recordOf(const Rule& rule) const;
  /// After one of our own writes produced `revision`: still in step unless another
  /// instance wrote in between (then the next syncRules() reloads). Under mutex_.
  void wrote(std::int64_t revision);
  std::vector<store::AlertDeliveryRecord> outboxRows(const Firing& firing,
                                                     const std::vector<Channel>& channels) const;

  store::AlertStore& store_;
  const catalog::Catalog& catalog_;
  const prices::LatestPrices& latest_;
  MetricsProvider metrics_;
  const prices::PricePolicy& policy_;
  AlertsOptions options_;
  std::function<std::int64_t()> now_;
  std::function<void()> on_deliveries_;
  ParseOptions parse_;
  std::function<bool()> evaluates_reloads_;

  std::mutex mutex_;  ///< the evaluator and channels_: evaluations and rule changes
  Evaluator evaluator_;
  std::int64_t known_revision_ = -1;  ///< the rules revision the index reflects
  std::unordered_map<std::int64_t, std::vector<Channel>> channels_;  ///< by rule id
};

}  // namespace skinpulse::alerts
