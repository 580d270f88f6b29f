#pragma once

// NullPriceStore: a PriceStore that stores nothing and finds nothing. Tests derive from
// it and override only what the code under test uses, so a new PriceStore method does
// not mean editing every fake.

#include "store/PriceStore.hpp"

namespace skinpulse::test {

class NullPriceStore : public store::PriceStore {
 public:
  std::size_t insert(const std::vector<store::PricePoint>&) override { return 0; }
  std::size_t insertBackfill(const std::vector<store::PricePoint>& points) override {
    return insert(points);
  }
  std::int64_t backfillRevision() override { return 0; }
  void clearOutliers(const std::vector<store::PricePoint>&) override {}
  std::int64_t newestTime() override { return 0; }
  std::vector<store::PricePoint> history(std::int64_t, std::int64_t,
                                         const std::optional<std::string>&) override {
    return {};
  }
  std::vector<store::PricePoint> pointsSince(std::int64_t) override { return {}; }
  std::vector<Latest> latestPerItemSource() override { return {}; }
  std::size_t deleteOlderThan(std::int64_t, std::int64_t, std::size_t) override { return 0; }
  std::vector<store::PricePoint> newestBefore(std::int64_t) override { return {}; }
  std::vector<std::string> sourceNames() override { return {}; }
  std::vector<store::OhlcvBar> rollups(std::int64_t, const std::string&, store::RollupLevel,
                                       std::int64_t) override {
    return {};
  }
  std::size_t deleteRollupsBefore(store::RollupLevel, std::int64_t) override { return 0; }
  std::int64_t lastCycleSeq() override { return 0; }
  FollowedCycles cyclesAfter(std::int64_t seq, std::size_t) override { return {seq, {}}; }
};

}  // namespace skinpulse::test
