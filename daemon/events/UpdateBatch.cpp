#include "events/UpdateBatch.hpp"

#include <algorithm>

namespace skinpulse::events {

UpdateBatch::UpdateBatch(std::string kind, std::vector<UpdateEntry> entries, std::int64_t cycle)
    : kind_(std::move(kind)), entries_(std::move(entries)), cycle_(cycle) {
  std::stable_sort(
      entries_.begin(), entries_.end(),
      [](const UpdateEntry& a, const UpdateEntry& b) { return a.item_id < b.item_id; });
  for (std::size_t i = 0; i < entries_.size(); ++i) {
    if (i == 0 || entries_[i].item_id != entries_[i - 1].item_id) ++distinct_items_;
  }
}

std::pair<std::size_t, std::size_t> UpdateBatch::rangeOf(std::int64_t item_id) const {
  const auto less = [](const UpdateEntry& entry, std::int64_t id) { return entry.item_id < id; };
  const auto first = std::lower_bound(entries_.begin(), entries_.end(), item_id, less);
  auto last = first;
  while (last != entries_.end() && last->item_id == item_id) ++last;
  return {static_cast<std::size_t>(first - entries_.begin()),
          static_cast<std::size_t>(last - entries_.begin())};
}

}  // namespace skinpulse::events
