#pragma once

// ReadBudget: at most `limit` requests per key (a client or an API key id) in each
// 60-second window, counted in this process only. Built for the HTTP event loops, where
// the hot cached reads run (RouteOptions::runs_inline): no I/O, no allocation for a key
// already seen, and a lock held for a hash lookup and an add, split over 64 shards so
// two loops rarely meet. A window starts at a key's first request after the previous one
// ended (not on the minute, so clients do not all renew at once); refused requests are
// not counted, so a client that waits Retry-After is admitted again.
//
// Memory is bounded: a shard holds at most kMaxKeysPerShard keys. A full shard drops the
// keys whose window has ended (a scan of the shard, so at most once a second: a flood of
// newcomers must not buy a scan each); until that makes room, newcomers to that shard
// share one overflow budget (a flood of distinct clients cannot grow the table, nor get
// around the limit by being new).

#include <array>
#include <climits>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>

namespace skinpulse::access {

class ReadBudget {
 public:
  using Clock = std::function<std::int64_t()>;  ///< milliseconds, monotonic

  static constexpr std::size_t kShards = 64;
  static constexpr std::size_t kMaxKeysPerShard = 4096;
  static constexpr std::int64_t kWindowMs = 60000;

  /// `limit` requests per window; 0 admits everything without counting.
  explicit ReadBudget(std::int64_t limit, Clock clock = {});

  struct Decision {
    bool allowed = true;
    std::int64_t retry_after_seconds = 0;  ///< when refused: ≥ 1, rounded up
  };

  Decision admit(std::string_view key);

  std::int64_t limit() const { return limit_; }
  /// Keys held (tests, metrics).
  std::size_t size() const;

 private:
  struct Window {
    std::int64_t started_ms = 0;
    std::int64_t count = 0;
  };
  /// Lets find() take a string_view: no copy of the key on the hot path.
  struct KeyHash {
    using is_transparent = void;
    std::size_t operator()(std::string_view key) const {
      return std::hash<std::string_view>{}(key);
    }
  };
  struct Shard {
    mutable std::mutex mutex;
    std::unordered_map<std::string, Window, KeyHash, std::equal_to<>> windows;
    Window overflow;
    std::int64_t pruned_ms = INT64_MIN / 2;  ///< last dropEnded(): at most one a second
  };

  Decision count(Window& window, std::int64_t now_ms) const;
  static void dropEnded(Shard& shard, std::int64_t now_ms);

  std::int64_t limit_;
  Clock clock_;
  std::array<Shard, kShards> shards_;
};

}  // namespace skinpulse::access
