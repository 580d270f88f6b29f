#pragma once

// UpdateFrames: the WebSocket frames of one UpdateBatch, `{"type":"<kind>","data":[...]}`
// with at most 1,000 entries each (docs/api.md §7). Shared by every reactor thread: the
// frames of a "*" subscriber are built once per batch and shared by all of them; others
// get their frames assembled from the batch's pre-serialised entries, appended straight
// into one buffer per client (a cycle's prices and volatility frames of a client are one
// allocation and one write).

#include "events/UpdateBatch.hpp"
#include "ws/Protocol.hpp"

#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace skinpulse::ws {

using SharedBytes = std::shared_ptr<const std::string>;

class UpdateFrames {
 public:
  static constexpr std::size_t kMaxEntriesPerFrame = 1000;

  explicit UpdateFrames(events::UpdateBatchPtr batch);

  const events::UpdateBatch& batch() const { return *batch_; }

  /// Called by each reactor once it handed this batch to all of its clients' sockets (the
  /// hub measures fan-out with it). Set before the frames are shared.
  void setOnDelivered(std::function<void()> on_delivered) {
    on_delivered_ = std::move(on_delivered);
  }
  void delivered() const {
    if (on_delivered_) on_delivered_();
  }

  /// The frames of every entry, built once (thread-safe) and shared by "*" subscribers.
  const std::vector<SharedBytes>& allFrames();

  /// Appends the frames of the entries `subscription` (ids, not "*") covers to `out`;
  /// nothing when it covers none. Thread-safe (the batch is immutable).
  void appendFramesFor(const Subscription& subscription, std::string& out) const;

  /// Frames for `subscription`, one buffer per frame; empty when it covers none of the
  /// batch's items.
  std::vector<SharedBytes> framesFor(const Subscription& subscription);

 private:
  /// Indices of the entries `subscription` (ids) covers, in item order; valid until the
  /// calling thread's next call.
  const std::vector<std::uint32_t>& pick(const Subscription& subscription) const;

  events::UpdateBatchPtr batch_;
  std::string prefix_;  ///< `{"type":"<kind>","data":[`
  std::once_flag all_once_;
  std::vector<SharedBytes> all_frames_;
  std::function<void()> on_delivered_;
};

/// Frames holding `entries` (pointers into a batch), at most kMaxEntriesPerFrame each.
std::vector<SharedBytes> renderUpdateFrames(const std::string& kind,
                                            const std::vector<const events::UpdateEntry*>& entries);

}  // namespace skinpulse::ws
