#pragma once

// BucketQueue: the closed buckets of one BucketLevel, oldest first, encoded in a byte
// buffer. It exists for memory: a fixed Bucket takes 112 bytes, and a daemon holds
// hundreds of buckets for each of 100,000+ series.
//
// Each bucket is a record of variable-length integers (LEB128; signed ones zig-zagged)
// that stores nothing derivable: its index and first price as differences from the
// previous record's index and last price, and, for the common bucket of one point, only
// (index, n, offset, price) since every sum of one point follows from it. A one-point
// bucket then takes 4-6 bytes and a full hour of 5-minute points about 30, instead of
// 112. Every field is kept whole (up to 128 bits), so decoding gives back the exact Bucket.
//
// Buckets leave from the front only (a window moving on), and arrive at the back in
// index order; BucketLevel rewrites the whole queue in the rare case of a point for an
// older bucket. Popped bytes are reclaimed by moving the rest down once they are a
// quarter of the buffer, so a steady queue neither grows nor moves often.

#include "metrics/Bucket.hpp"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace skinpulse::metrics {

class BucketQueue {
  // What a record is encoded against: the index and last price of the record before.
  struct Context {
    std::uint32_t index = 0;
    std::int64_t price = 0;
  };

 public:
  /// Reads the buckets in order without removing them. Invalidated by any change.
  class Reader {
   public:
    /// The next bucket into `out`; false at the end.
    bool next(Bucket& out);

   private:
    friend class BucketQueue;
    Reader(const BucketQueue& queue, std::size_t at, Context context)
        : queue_(queue), at_(at), context_(context) {}
    const BucketQueue& queue_;
    std::size_t at_;
    Context context_;
  };

  bool empty() const { return count_ == 0; }
  std::size_t size() const { return count_; }

  /// Appends `bucket`, whose index must be above every index in the queue.
  void push(const Bucket& bucket);
  /// The oldest bucket. The queue must not be empty.
  Bucket front() const;
  /// Removes and returns the oldest bucket. The queue must not be empty.
  Bucket pop();

  Reader reader() const { return Reader(*this, head_, head_context_); }

  void clear();
  /// Gives back the buffer's unused capacity (after a rebuild, when it will not grow much).
  void shrink();
  /// Bytes held by the buffer, used or not.
  std::size_t capacityBytes() const { return bytes_.capacity(); }

 private:
  /// Decodes the record at `at` into `out`; returns where the next one starts.
  std::size_t decode(std::size_t at, Context& context, Bucket& out) const;
  void compact();

  std::vector<std::uint8_t> bytes_;
  std::uint32_t head_ = 0;  ///< where the oldest record starts
  std::uint32_t count_ = 0;
  Context head_context_;  ///< of the record before the oldest (popped, or none)
  Context tail_context_;  ///< of the newest record
};

}  // namespace skinpulse::metrics
