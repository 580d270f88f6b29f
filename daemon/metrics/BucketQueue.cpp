#include "metrics/BucketQueue.hpp"

#include <algorithm>

namespace skinpulse::metrics {
namespace {

__extension__ typedef unsigned __int128 UWide;

// The longest record: ten fields of up to 64 bits (10 bytes each) and two of 128 (19).
constexpr std::size_t kMaxRecord = 10 * 10 + 2 * 19;

std::uint8_t* put(std::uint8_t* out, UWide value) {
  while (value >= 0x80) {
    *out++ = static_cast<std::uint8_t>(value) | 0x80;
    value >>= 7;
  }
  *out++ = static_cast<std::uint8_t>(value);
  return out;
}

std::uint8_t* putSigned(std::uint8_t* out, Wide value) {
  // Zig-zag: small magnitudes of either sign become small unsigned numbers.
  return put(out, (static_cast<UWide>(value) << 1) ^ static_cast<UWide>(value >> 127));
}

// Decoding is on the recompute path (buckets leaving a window), so the 64-bit fields get
// their own loop rather than 128-bit shifts.
std::uint64_t get(const std::uint8_t*& in) {
  std::uint64_t value = 0;
  for (unsigned shift = 0;; shift += 7) {
    const std::uint8_t byte = *in++;
    value |= static_cast<std::uint64_t>(byte & 0x7f) << shift;
    if ((byte & 0x80) == 0) return value;
  }
}

std::int64_t getSigned(const std::uint8_t*& in) {
  const std::uint64_t value = get(in);
  return static_cast<std::int64_t>(value >> 1) ^ -static_cast<std::int64_t>(value & 1);
}

UWide getWide(const std::uint8_t*& in) {
  UWide value = 0;
  for (unsigned shift = 0;; shift += 7) {
    const std::uint8_t byte = *in++;
    value |= static_cast<UWide>(byte & 0x7f) << shift;
    if ((byte & 0x80) == 0) return value;
  }
}

Wide getSignedWide(const std::uint8_t*& in) {
  const UWide value = getWide(in);
  return static_cast<Wide>(value >> 1) ^ -static_cast<Wide>(value & 1);
}

}  // namespace

bool BucketQueue::Reader::next(Bucket& out) {
  if (at_ >= queue_.bytes_.size()) return false;
  at_ = queue_.decode(at_, context_, out);
  return true;
}

void BucketQueue::push(const Bucket& b) {
  std::uint8_t record[kMaxRecord];
  std::uint8_t* out = record;
  // Unsigned wrap-around keeps the index difference exact whatever the order.
  out = put(out, static_cast<std::uint32_t>(b.index - tail_context_.index));
  out = put(out, b.n);
  out = put(out, b.first_offset);
  out = putSigned(out, b.first_price - tail_context_.price);
  if (b.n != 1) {
    out = put(out, b.last_offset);
    out = putSigned(out, b.last_price - b.first_price);
    out = put(out, static_cast<std::uint64_t>(b.first_price - b.min_price));
    out = put(out, static_cast<std::uint64_t>(b.max_price - b.first_price));
    out = put(out, static_cast<std::uint64_t>(b.sum_dt));
    out = put(out, static_cast<std::uint64_t>(b.sum_dt2));
    out = putSigned(out, b.sum_dp);
    out = put(out, static_cast<UWide>(b.sum_dp2));
    out = putSigned(out, b.sum_dtdp);
  }
  const auto length = static_cast<std::size_t>(out - record);
  if (bytes_.size() + length > bytes_.capacity()) {
    // Reclaim popped bytes when they are worth a move; otherwise grow by a quarter
    // (not double: these buffers are most of the daemon's memory).
    if (head_ > 0 && std::size_t{head_} * 4 >= bytes_.size()) compact();
    const std::size_t need = bytes_.size() + length;
    if (need > bytes_.capacity()) {
      bytes_.reserve(std::max(need, bytes_.capacity() + bytes_.capacity() / 4 + 32));
    }
  }
  bytes_.insert(bytes_.end(), record, out);
  tail_context_ = Context{b.index, b.last_price};
  ++count_;
}

std::size_t BucketQueue::decode(std::size_t at, Context& context, Bucket& b) const {
  const std::uint8_t* in = bytes_.data() + at;
  b = Bucket{};
  b.index = context.index + static_cast<std::uint32_t>(get(in));
  b.n = static_cast<std::uint32_t>(get(in));
  b.first_offset = static_cast<std::uint16_t>(get(in));
  b.first_price = context.price + getSigned(in);
  if (b.n == 1) {
    // One point: every other field follows from (offset, price).
    b.last_offset = b.first_offset;
    b.last_price = b.min_price = b.max_price = b.first_price;
    b.sum_dt = b.first_offset;
    b.sum_dt2 = std::int64_t{b.first_offset} * b.first_offset;
  } else {
    b.last_offset = static_cast<std::uint16_t>(get(in));
    b.last_price = b.first_price + getSigned(in);
    b.min_price = b.first_price - static_cast<std::int64_t>(get(in));
    b.max_price = b.first_price + static_cast<std::int64_t>(get(in));
    b.sum_dt = static_cast<std::int64_t>(get(in));
    b.sum_dt2 = static_cast<std::int64_t>(get(in));
    b.sum_dp = getSigned(in);
    b.sum_dp2 = static_cast<Wide>(getWide(in));
    b.sum_dtdp = getSignedWide(in);
  }
  context = Context{b.index, b.last_price};
  return static_cast<std::size_t>(in - bytes_.data());
}

Bucket BucketQueue::front() const {
  Context context = head_context_;
  Bucket b;
  decode(head_, context, b);
  return b;
}

Bucket BucketQueue::pop() {
  Bucket b;
  head_ = static_cast<std::uint32_t>(decode(head_, head_context_, b));
  if (--count_ == 0) {
    bytes_.clear();
    head_ = 0;
  }
  return b;
}

void BucketQueue::compact() {
  bytes_.erase(bytes_.begin(), bytes_.begin() + head_);
  head_ = 0;
}

void BucketQueue::clear() {
  bytes_.clear();
  head_ = 0;
  count_ = 0;
  head_context_ = tail_context_ = Context{};
}

void BucketQueue::shrink() {
  if (head_ > 0) compact();
  bytes_.shrink_to_fit();
}

}  // namespace skinpulse::metrics
