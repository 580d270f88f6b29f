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

  /// Indices [first, last) of the entries of `item_id` (first == last: none). Constant
  /// time for the usual dense catalogue ids: every client looks up each of its items in
  /// every batch, so this runs (clients × items) times a cycle.
  std::pair<std::size_t, std::size_t> rangeOf(std::int64_t item_id) const;

  /// The publisher sends another batch of the same cycle right after this one (prices,
  /// then volatility): a receiver may wait for it and send a client both at once. Only a
  /// hint; set before the batch is shared, not carried between instances.
  bool followed() const { return followed_; }
  void setFollowed(bool followed) { followed_ = followed; }

 private:
  void buildIndex();

  std::string kind_;
  std::vector<UpdateEntry> entries_;
  std::int64_t cycle_ = 0;
  std::size_t distinct_items_ = 0;
  bool followed_ = false;
  // Dense ids (the catalogue's 1..N): starts_[id - first_id_] is the first entry of id,
  // starts_ one longer than the id span. Sparse ids: empty, and rangeOf() searches.
  std::int64_t first_id_ = 0;
  std::vector<std::uint32_t> starts_;
};

using UpdateBatchPtr = std::shared_ptr<const UpdateBatch>;

}  // namespace skinpulse::events
