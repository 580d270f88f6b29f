#pragma once

// CycleLogStore: a PriceStore that holds only a cycle log, for the tests of how a standby
// follows the polling instance (CycleFollower, IngestCycle). Cycles are logged with the
// sequence numbers the test chooses (PostgreSQL's may skip).
// `latestPerItemSource()` is counted: a full reload reads it.

#include "mocks/NullPriceStore.hpp"

#include <map>

namespace skinpulse::testing {

/// Whether this PriceStore reports a pruned log (FollowedCycles::complete).
template <typename Followed = store::PriceStore::FollowedCycles>
constexpr bool reportsPrunedLog() {
  return requires(Followed followed) { followed.complete; };
}

template <typename Followed>
void markIncomplete(Followed& followed) {
  if constexpr (requires { followed.complete; }) followed.complete = false;
}

class CycleLogStore final : public test::NullPriceStore {
 public:
  /// The log was pruned past every position before this sequence number.
  std::int64_t pruned_before = 0;
  std::int64_t revision = 0;
  int full_loads = 0;
  std::map<std::int64_t, std::vector<store::PricePoint>> cycles;

  void log(std::int64_t seq, std::vector<store::PricePoint> points) {
    cycles[seq] = std::move(points);
  }

  std::int64_t backfillRevision() override { return revision; }
  std::int64_t newestTime() override {
    std::int64_t newest = 0;
    for (const auto& [seq, points] : cycles) {
      for (const auto& point : points) newest = std::max(newest, point.time);
    }
    return newest;
  }
  std::vector<Latest> latestPerItemSource() override {
    ++full_loads;
    return {};
  }
  std::int64_t lastCycleSeq() override { return cycles.empty() ? 0 : cycles.rbegin()->first; }
  FollowedCycles cyclesAfter(std::int64_t seq, std::size_t max_cycles) override {
    FollowedCycles followed{seq, {}};
    if (seq < pruned_before) markIncomplete(followed);
    for (auto it = cycles.upper_bound(seq); it != cycles.end() && max_cycles > 0;
         ++it, --max_cycles) {
      followed.last_seq = it->first;
      followed.points.insert(followed.points.end(), it->second.begin(), it->second.end());
    }
    return followed;
  }
};

inline store::PricePoint pointAt(std::int64_t item_id, std::int64_t time, std::int64_t price,
                                 const std::string& source = "market") {
  store::PricePoint point;
  point.item_id = item_id;
  point.source = source;
  point.time = time;
  point.price = price;
  point.volume = 1;
  return point;
}

}  // namespace skinpulse::testing
