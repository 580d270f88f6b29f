#include "ingest/CacheInvalidation.hpp"

#include <algorithm>

namespace skinpulse::ingest {

void CacheInvalidation::onCycle(const CycleUpdate& update) {
  std::vector<std::int64_t> items;
  items.reserve(update.points.size());
  for (const auto& point : update.points) items.push_back(point.item_id);
  std::sort(items.begin(), items.end());
  items.erase(std::unique(items.begin(), items.end()), items.end());
  cache_.invalidate(items);
}

}  // namespace skinpulse::ingest
