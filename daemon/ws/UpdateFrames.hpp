#pragma once

// UpdateFrames: the WebSocket frames of one UpdateBatch, `{"type":"<kind>","data":[...]}`
// with at most 1,000 entries each (decisions.md §7). Shared by every reactor thread: the
// frames of a "*" subscriber are built once per batch and shared by all of them; others
// get frames assembled from the batch's pre-serialised entries.

#include "events/UpdateBatch.hpp"
#include "ws/Protocol.hpp"

#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace skinpulse::ws {

using SharedBytes = std::shared_ptr<const std::string>;

class UpdateFrames {
 public:
  static constexpr std::size_t kMaxEntriesPerFrame = 1000;

  explicit UpdateFrames(events::UpdateBatchPtr batch) : batch_(std::move(batch)) {}

  const events::UpdateBatch& batch() const { return *batch_; }

  /// Frames for `subscription`; empty when it covers none of the batch's items.
  std::vector<SharedBytes> framesFor(const Subscription& subscription);

 private:
  const std::vector<SharedBytes>& allFrames();

  events::UpdateBatchPtr batch_;
  std::once_flag all_once_;
  std::vector<SharedBytes> all_frames_;
};

/// Frames holding `entries` (pointers into a batch), at most kMaxEntriesPerFrame each.
std::vector<SharedBytes> renderUpdateFrames(const std::string& kind,
                                            const std::vector<const events::UpdateEntry*>& entries);

}  // namespace skinpulse::ws
