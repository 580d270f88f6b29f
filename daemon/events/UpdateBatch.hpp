#pragma once

// UpdateBatch: one ingestion cycle's updates of one kind ("prices" or "volatility"), each
// entry serialised once as the JSON object the WebSocket frames carry. Immutable once
// built and shared (std::shared_ptr<const UpdateBatch>) by every subscriber, so the bytes
// of an entry exist once however many clients receive it.

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace skinpulse::events {

struct UpdateEntry {
  std::int64_t item_id = 0;
  std::string json;  ///< one complete JSON object
};

class UpdateBatch {
 public:
  /// Orders the entries by item id (stable: an item's entries keep their order).
  /// `cycle` tells the batches of one ingestion cycle from the next (its time; 0: unknown,
  /// every batch is a cycle of its own).
  UpdateBatch(std::string kind, std::vector<UpdateEntry> entries, std::int64_t cycle = 0);

  const std::string& kind() const { return kind_; }
  std::int64_t cycle() const { return cycle_; }
  const std::vector<UpdateEntry>& entries() const { return entries_; }
  bool empty() const { return entries_.empty(); }
  std::size_t distinctItems() const { return distinct_items_; }

  /// Indices [first, last) of the entries of `item_id` (first == last: none).
  std::pair<std::size_t, std::size_t> rangeOf(std::int64_t item_id) const;

 private:
  std::string kind_;
  std::vector<UpdateEntry> entries_;
  std::int64_t cycle_ = 0;
  std::size_t distinct_items_ = 0;
};

using UpdateBatchPtr = std::shared_ptr<const UpdateBatch>;

}  // namespace skinpulse::events
