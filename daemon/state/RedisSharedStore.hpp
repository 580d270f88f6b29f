#pragma once

// RedisSharedStore: the shared state in Redis (REDIS_URL), shared by every daemon
// instance. Plain commands where one suffices (SET PX NX, GETDEL, PTTL; Redis ≥ 6.2),
// Lua scripts where a decision must be atomic (counter TTL on creation, sliding window
// as a sorted set of admitted times).
//
// Connections come from a small pool; each has a connect and a reply timeout, so an
// unreachable or hung Redis costs a request at most that long and surfaces as
// StoreUnavailable. A connection that failed is closed, never reused.

#include "redis/RedisUrl.hpp"
#include "state/SharedStore.hpp"

#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

namespace Poco::Redis {
class Client;
class Array;
}  // namespace Poco::Redis

namespace skinpulse::state {

struct RedisOptions {
  int connect_timeout_ms = 1000;
  int reply_timeout_ms = 2000;
  std::size_t max_idle = 16;  ///< connections kept open between requests
  /// CLIENT SETNAME of every connection (shows in CLIENT LIST); no spaces.
  std::string client_name = "skinpulsed";
};

class RedisSharedStore final : public SharedStore {
 public:
  explicit RedisSharedStore(redis::RedisUrl url, RedisOptions options = {});
  ~RedisSharedStore() override;

  std::string backend() const override { return "redis"; }
  bool ping() override;
  std::optional<std::string> get(const std::string& key) override;
  void set(const std::string& key, const std::string& value, Ttl ttl) override;
  bool setIfAbsent(const std::string& key, const std::string& value, Ttl ttl) override;
  bool remove(const std::string& key) override;
  std::optional<std::string> take(const std::string& key) override;
  std::optional<std::int64_t> ttlLeft(const std::string& key) override;
  std::int64_t increment(const std::string& key, std::int64_t delta, Ttl ttl) override;
  WindowDecision acquireSlot(const std::string& key, std::int64_t limit, Ttl window,
                             std::int64_t now_ms) override;

 private:
  class Lease;
  std::unique_ptr<Poco::Redis::Client> connect() const;
  /// A pooled connection (`pooled` = true) or a new one.
  std::unique_ptr<Poco::Redis::Client> acquire(bool& pooled);
  void release(std::unique_ptr<Poco::Redis::Client> client);
  /// Runs `op` on a pooled connection; every failure but a caller's mistake
  /// (std::logic_error) becomes StoreUnavailable.
  template <typename Op>
  auto withClient(const char* what, Op op) -> decltype(op(std::declval<Poco::Redis::Client&>()));

  redis::RedisUrl url_;
  RedisOptions options_;
  std::mutex mutex_;
  std::vector<std::unique_ptr<Poco::Redis::Client>> idle_;
};

}  // namespace skinpulse::state
