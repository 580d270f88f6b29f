#include "events/UpdateBatch.hpp"

#include <algorithm>

namespace skinpulse::events {
namespace {

// A direct index costs 4 bytes per id of the span; past this many ids per entry the
// batch is sparse and binary search is used instead.
constexpr std::size_t kMaxSpanPerEntry = 8;

}  // namespace

UpdateBatch::UpdateBatch(std::string kind, std::vector<UpdateEntry> entries, std::int64_t cycle)
    : kind_(std::move(kind)), entries_(std::move(entries)), cycle_(cycle) {
  const auto by_item = [](const UpdateEntry& a, const UpdateEntry& b) {
    return a.item_id < b.item_id;
  };
  // A cycle's points usually arrive in item order already: moving every entry through a
  // merge sort would cost the publishing thread milliseconds for nothing.
  if (!std::is_sorted(entries_.begin(), entries_.end(), by_item)) {
    std::stable_sort(entries_.begin(), entries_.end(), by_item);
  }
  for (std::size_t i = 0; i < entries_.size(); ++i) {
    if (i == 0 || entries_[i].item_id != entries_[i - 1].item_id) ++distinct_items_;
  }
  buildIndex();
}

void UpdateBatch::buildIndex() {
  if (entries_.empty() || entries_.size() >= UINT32_MAX) return;
  first_id_ = entries_.front().item_id;
  const auto span = static_cast<std::uint64_t>(entries_.back().item_id) -
                    static_cast<std::uint64_t>(first_id_) + 1;  // sorted: no wrap
  if (span > kMaxSpanPerEntry * entries_.size() + 1024) return;
  starts_.resize(static_cast<std::size_t>(span) + 1);
  std::size_t entry = 0;
  for (std::size_t offset = 0; offset <= span; ++offset) {
    const auto id = first_id_ + static_cast<std::int64_t>(offset);
    while (entry < entries_.size() && entries_[entry].item_id < id) ++entry;
    starts_[offset] = static_cast<std::uint32_t>(entry);
  }
}

std::pair<std::size_t, std::size_t> UpdateBatch::rangeOf(std::int64_t item_id) const {
  if (!starts_.empty()) {
    if (item_id < first_id_ ||
        item_id - first_id_ >= static_cast<std::int64_t>(starts_.size()) - 1) {
      return {0, 0};
    }
    const auto offset = static_cast<std::size_t>(item_id - first_id_);
    return {starts_[offset], starts_[offset + 1]};
  }
  const auto less = [](const UpdateEntry& entry, std::int64_t id) { return entry.item_id < id; };
  const auto first = std::lower_bound(entries_.begin(), entries_.end(), item_id, less);
  auto last = first;
  while (last != entries_.end() && last->item_id == item_id) ++last;
  return {static_cast<std::size_t>(first - entries_.begin()),
          static_cast<std::size_t>(last - entries_.begin())};
}

}  // namespace skinpulse::events
