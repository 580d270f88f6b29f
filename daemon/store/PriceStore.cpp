#include "store/PriceStore.hpp"

namespace skinpulse::store {
namespace {

// For stores without a streaming path (test doubles): the whole backfill in memory.
class CollectingBackfillWriter final : public PriceStore::BackfillWriter {
 public:
  explicit CollectingBackfillWriter(PriceStore& store) : store_(store) {}
  void add(const std::vector<PricePoint>& points) override {
    points_.insert(points_.end(), points.begin(), points.end());
  }
  void clearOutliers(const std::vector<PricePoint>& points) override {
    confirmed_.insert(confirmed_.end(), points.begin(), points.end());
  }
  std::size_t finish() override {
    const std::size_t stored = store_.insertBackfill(points_);
    store_.clearOutliers(confirmed_);
    return stored;
  }

 private:
  PriceStore& store_;
  std::vector<PricePoint> points_;
  std::vector<PricePoint> confirmed_;
};

}  // namespace

std::unique_ptr<PriceStore::BackfillWriter> PriceStore::openBackfill(std::int64_t) {
  return std::make_unique<CollectingBackfillWriter>(*this);
}

}  // namespace skinpulse::store
