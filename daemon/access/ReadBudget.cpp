#include "access/ReadBudget.hpp"

#include <algorithm>
#include <chrono>

namespace skinpulse::access {
namespace {

constexpr std::int64_t kPruneEveryMs = 1000;

std::int64_t steadyMs() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

}  // namespace

ReadBudget::ReadBudget(std::int64_t limit, Clock clock)
    : limit_(limit), clock_(clock ? std::move(clock) : Clock(steadyMs)) {}

ReadBudget::Decision ReadBudget::count(Window& window, std::int64_t now_ms) const {
  if (window.count == 0 || now_ms - window.started_ms >= kWindowMs) {
    window.started_ms = now_ms;
    window.count = 0;
  }
  if (window.count >= limit_) {
    const std::int64_t left_ms = window.started_ms + kWindowMs - now_ms;
    return {false, std::max<std::int64_t>(1, (left_ms + 999) / 1000)};
  }
  ++window.count;
  return {};
}

void ReadBudget::dropEnded(Shard& shard, std::int64_t now_ms) {
  for (auto it = shard.windows.begin(); it != shard.windows.end();) {
    if (now_ms - it->second.started_ms >= kWindowMs) {
      it = shard.windows.erase(it);
    } else {
      ++it;
    }
  }
}

ReadBudget::Decision ReadBudget::admit(std::string_view key) {
  if (limit_ <= 0) return {};
  const std::int64_t now_ms = clock_();
  Shard& shard = shards_[std::hash<std::string_view>{}(key) % kShards];
  std::lock_guard lock(shard.mutex);
  auto found = shard.windows.find(key);
  if (found != shard.windows.end()) return count(found->second, now_ms);
  if (shard.windows.size() >= kMaxKeysPerShard && now_ms - shard.pruned_ms >= kPruneEveryMs) {
    shard.pruned_ms = now_ms;
    dropEnded(shard, now_ms);
  }
  if (shard.windows.size() >= kMaxKeysPerShard) return count(shard.overflow, now_ms);
  return count(shard.windows.emplace(std::string(key), Window{}).first->second, now_ms);
}

std::size_t ReadBudget::size() const {
  std::size_t total = 0;
  for (const auto& shard : shards_) {
    std::lock_guard lock(shard.mutex);
    total += shard.windows.size();
  }
  return total;
}

}  // namespace skinpulse::access
