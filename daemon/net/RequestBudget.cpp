#include "net/RequestBudget.hpp"

#include <algorithm>
#include <thread>

namespace skinpulse::net {
namespace {

constexpr std::int64_t kMilli = 1000;

}  // namespace

RequestBudget::RequestBudget(std::int64_t per_minute, Clock clock)
    : per_minute_(std::max<std::int64_t>(1, per_minute)),
      reserve_(per_minute_ / 4),
      clock_(clock ? std::move(clock) : Clock([] { return std::chrono::steady_clock::now(); })),
      milli_tokens_(per_minute_ * kMilli),
      last_refill_(clock_()) {}

void RequestBudget::refillLocked(std::chrono::steady_clock::time_point now) {
  if (now <= last_refill_) return;
  const auto elapsed_ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(now - last_refill_).count();
  // per_minute tokens per 60,000 ms = per_minute milli-tokens per 60 ms.
  const std::int64_t gained = elapsed_ms * per_minute_ / 60;
  if (gained == 0) return;  // keep last_refill_ so that short steps still add up
  milli_tokens_ = std::min(per_minute_ * kMilli, milli_tokens_ + gained);
  last_refill_ += std::chrono::milliseconds(gained * 60 / per_minute_);
  if (milli_tokens_ == per_minute_ * kMilli) last_refill_ = now;
}

std::int64_t RequestBudget::floorFor(Priority priority) const {
  return priority == Priority::kUser ? 0 : reserve_ * kMilli;
}

RequestBudget::Admission RequestBudget::tryAcquire(Priority priority) {
  std::lock_guard lock(mutex_);
  refillLocked(clock_());
  const std::int64_t needed = floorFor(priority) + kMilli;
  if (milli_tokens_ >= needed) {
    milli_tokens_ -= kMilli;
    return {true, std::chrono::milliseconds(0)};
  }
  // Milli-tokens arrive at per_minute per 60 ms: the missing ones take this long.
  const std::int64_t missing = needed - milli_tokens_;
  const std::int64_t wait_ms = (missing * 60 + per_minute_ - 1) / per_minute_;
  return {false, std::chrono::milliseconds(std::max<std::int64_t>(1, wait_ms))};
}

bool RequestBudget::acquire(Priority priority, std::chrono::steady_clock::time_point deadline) {
  for (;;) {
    const Admission admission = tryAcquire(priority);
    if (admission.granted) return true;
    const auto now = clock_();
    if (now >= deadline) return false;
    // Tokens only arrive with time, so sleeping until the next one is due is exact.
    std::this_thread::sleep_for(
        std::min<std::chrono::steady_clock::duration>(deadline - now, admission.retry_after));
  }
}

}  // namespace skinpulse::net
