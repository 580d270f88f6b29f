#include "portfolio/ValueSnapshots.hpp"

namespace skinpulse::portfolio {

ValueSnapshots::ValueSnapshots(HoldingStore& holdings, SnapshotStore& store,
                               const PortfolioValuer& valuer, std::int64_t retention_seconds)
    : holdings_(holdings), store_(store), valuer_(valuer), retention_seconds_(retention_seconds) {}

PassOutcome ValueSnapshots::takeAll(std::int64_t now) {
  PassOutcome outcome;
  const auto items = holdings_.heldItemIds();
  const auto prices = valuer_.unitPrices(items, now);
  // Items without a price count 0 in the database too: leave them out of the table.
  std::vector<std::int64_t> priced_ids, priced;
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (prices[i] == 0) continue;
    priced_ids.push_back(items[i]);
    priced.push_back(prices[i]);
  }
  outcome.items = items.size();
  outcome.users = store_.snapshotAll(priced_ids, priced, hourOf(now), now);
  outcome.pruned = store_.pruneSnapshots(hourOf(now - retention_seconds_));
  return outcome;
}

void ValueSnapshots::takeOne(const std::string& user_id, const Valuation& valuation,
                             std::int64_t now) {
  store_.putSnapshot(user_id, {hourOf(now), now, valuation.total_value, valuation.cost_total});
}

std::vector<SnapshotRecord> ValueSnapshots::history(const std::string& user_id, std::int64_t window,
                                                    std::int64_t now) {
  return store_.snapshotsOf(user_id, now - window);
}

}  // namespace skinpulse::portfolio
