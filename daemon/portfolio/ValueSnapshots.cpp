#include "portfolio/ValueSnapshots.hpp"

namespace skinpulse::portfolio {

ValueSnapshots::ValueSnapshots(store::SnapshotStore& store, const PortfolioValuer& valuer,
                               std::int64_t retention_seconds, store::HoldingStore* holdings)
    : store_(store), valuer_(valuer), retention_seconds_(retention_seconds), holdings_(holdings) {}

PassOutcome ValueSnapshots::takeAll(std::int64_t now) {
  PassOutcome outcome;
  const auto priced = valuer_.pricedItems(now);
  outcome.items = priced.item_ids.size();
  outcome.users = store_.snapshotAll(priced.item_ids, priced.prices, hourOf(now), now);
  // The set-based sums know no applied items; when they count, the few users holding
  // some get the snapshot their answers would show (same hour: it replaces the sum's).
  if (holdings_ != nullptr && valuer_.appliedValuePercent() > 0) {
    for (const auto& user_id : holdings_->usersHoldingApplied()) {
      takeOne(user_id, valuer_.value(holdings_->holdingsOf(user_id), now), now);
    }
  }
  outcome.pruned = store_.pruneSnapshots(hourOf(now - retention_seconds_));
  return outcome;
}

void ValueSnapshots::takeOne(const std::string& user_id, const Valuation& valuation,
                             std::int64_t now) {
  store_.putSnapshot(user_id, {hourOf(now), now, valuation.total_value, valuation.cost_total});
}

std::vector<store::SnapshotRecord> ValueSnapshots::history(const std::string& user_id,
                                                           std::int64_t window, std::int64_t now) {
  return store_.snapshotsOf(user_id, now - window);
}

}  // namespace skinpulse::portfolio
