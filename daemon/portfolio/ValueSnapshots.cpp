#include "portfolio/ValueSnapshots.hpp"

namespace skinpulse::portfolio {

ValueSnapshots::ValueSnapshots(store::SnapshotStore& store, const PortfolioValuer& valuer,
                               std::int64_t retention_seconds)
    : store_(store), valuer_(valuer), retention_seconds_(retention_seconds) {}

PassOutcome ValueSnapshots::takeAll(std::int64_t now) {
  PassOutcome outcome;
  const auto priced = valuer_.pricedItems(now);
  outcome.items = priced.item_ids.size();
  outcome.users = store_.snapshotAll(priced.item_ids, priced.prices, hourOf(now), now);
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
