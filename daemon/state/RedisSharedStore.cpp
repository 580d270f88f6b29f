#include "state/RedisSharedStore.hpp"

#include "common/Log.hpp"
#include "redis/RedisClient.hpp"

#include <Poco/Exception.h>
#include <Poco/Net/NetException.h>
#include <Poco/Redis/Array.h>
#include <Poco/Redis/Client.h>
#include <Poco/Redis/Type.h>

#include <random>
#include <stdexcept>

namespace skinpulse::state {

using Poco::Redis::Array;
using Poco::Redis::BulkString;
using Poco::Redis::Client;
using Poco::Redis::RedisType;

namespace {

// Failures that mean "the store is not usable now" (as opposed to a caller's mistake).
[[noreturn]] void unavailable(const char* what, const std::string& detail) {
  throw StoreUnavailable(std::string("redis shared store: ") + what + " failed: " + detail);
}

using redis::ErrorReply;
using redis::run;

std::int64_t integerOf(const RedisType::Ptr& reply) {
  const auto* value = dynamic_cast<const Poco::Redis::Type<Poco::Int64>*>(reply.get());
  if (value == nullptr) throw Poco::BadCastException("expected an integer reply");
  return value->value();
}

std::optional<std::string> bulkOf(const RedisType::Ptr& reply) {
  const auto* value = dynamic_cast<const Poco::Redis::Type<BulkString>*>(reply.get());
  if (value == nullptr) throw Poco::BadCastException("expected a bulk string reply");
  if (value->value().isNull()) return std::nullopt;
  return value->value().value();
}

std::string requestToken() {
  thread_local std::mt19937_64 random{std::random_device{}()};
  return std::to_string(random()) + std::to_string(random());
}

std::string uniqueMember(std::int64_t now_ms) {
  return std::to_string(now_ms) + "-" + requestToken();
}

// Commands that are not idempotent (SET NX, GETDEL, INCRBY, the sliding window) carry a
// request token: when a reply is lost after the server executed the command (a pooled
// connection the server closed, a reset mid-reply), the retry with the same token finds
// the first attempt's outcome instead of executing again. Without it a retried SET NX
// would report a lost race for the lock it just took, a retried GETDEL would lose the
// value, and a retried INCRBY or window admission would count twice. The outcome is kept
// under "<key>:req:<token>" for kOutcomeTtlMs, far longer than a retry takes.
constexpr const char* kOutcomeTtlMs = "10000";

std::string outcomeKey(const std::string& key, const std::string& token) {
  return key + ":req:" + token;
}

// KEYS: key, outcome. ARGV: value, ttl ms (0: none), outcome ttl. Returns 1 when set.
constexpr const char* kSetIfAbsentScript = R"lua(
if redis.call('EXISTS', KEYS[2]) == 1 then return 1 end
local set
if tonumber(ARGV[2]) > 0 then
  set = redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2])
else
  set = redis.call('SET', KEYS[1], ARGV[1], 'NX')
end
if not set then return 0 end
redis.call('SET', KEYS[2], '1', 'PX', ARGV[3])
return 1
)lua";

// KEYS: key, outcome. ARGV: outcome ttl. The value, or false; a retry gets it again.
constexpr const char* kTakeScript = R"lua(
local kept = redis.call('GET', KEYS[2])
if kept then return kept end
local value = redis.call('GET', KEYS[1])
if not value then return false end
redis.call('DEL', KEYS[1])
redis.call('SET', KEYS[2], value, 'PX', ARGV[1])
return value
)lua";

// INCRBY that sets the TTL only when it creates the counter. KEYS: key, outcome.
// ARGV: delta, ttl ms, outcome ttl.
constexpr const char* kIncrementScript = R"lua(
local done = redis.call('GET', KEYS[2])
if done then return tonumber(done) end
local created = redis.call('EXISTS', KEYS[1]) == 0
local value = redis.call('INCRBY', KEYS[1], ARGV[1])
if created and tonumber(ARGV[2]) > 0 then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
redis.call('SET', KEYS[2], value, 'PX', ARGV[3])
return value
)lua";

// Sliding window over a sorted set of admitted times (score = Unix ms).
// Returns {admitted 0/1, count, retry_after_ms}.
constexpr const char* kWindowScript = R"lua(
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local limit = tonumber(ARGV[3])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
local count = redis.call('ZCARD', KEYS[1])
-- ARGV[4] is unique per call: finding it means a retry of an admitted request.
if redis.call('ZSCORE', KEYS[1], ARGV[4]) then return {1, count, 0} end
if count < limit then
  redis.call('ZADD', KEYS[1], now, ARGV[4])
  redis.call('PEXPIRE', KEYS[1], window)
  return {1, count + 1, 0}
end
local leaving = redis.call('ZRANGE', KEYS[1], count - limit, count - limit, 'WITHSCORES')
local retry = tonumber(leaving[2]) + window - now
if retry < 1 then retry = 1 end
return {0, count, retry}
)lua";

}  // namespace

// A pooled connection, returned on success and closed after any failure.
class RedisSharedStore::Lease {
 public:
  explicit Lease(RedisSharedStore& store) : store_(store), client_(store.acquire(pooled_)) {}
  ~Lease() {
    if (ok_) store_.release(std::move(client_));
  }
  Client& client() { return *client_; }
  void succeeded() { ok_ = true; }
  /// The connection came from the pool (it may have gone stale) rather than connect().
  bool pooled() const { return pooled_; }

 private:
  RedisSharedStore& store_;
  bool pooled_ = false;  // declared before client_: acquire() sets it while client_ is made
  std::unique_ptr<Client> client_;
  bool ok_ = false;
};

RedisSharedStore::RedisSharedStore(redis::RedisUrl url, RedisOptions options)
    : url_(std::move(url)), options_(options) {}

RedisSharedStore::~RedisSharedStore() = default;

std::unique_ptr<Client> RedisSharedStore::connect() const {
  redis::ConnectOptions options;
  options.connect_timeout_ms = options_.connect_timeout_ms;
  options.reply_timeout_ms = options_.reply_timeout_ms;
  options.client_name = options_.client_name;
  return redis::connect(url_, options);
}

std::unique_ptr<Client> RedisSharedStore::acquire(bool& pooled) {
  {
    std::lock_guard lock(mutex_);
    pooled = !idle_.empty();
    if (pooled) {
      auto client = std::move(idle_.back());
      idle_.pop_back();
      return client;
    }
  }
  return connect();
}

void RedisSharedStore::release(std::unique_ptr<Client> client) {
  std::lock_guard lock(mutex_);
  if (idle_.size() < options_.max_idle) idle_.push_back(std::move(client));
}

template <typename Op>
auto RedisSharedStore::withClient(const char* what, Op op)
    -> decltype(op(std::declval<Client&>())) {
  // A pooled connection may have been closed by the server (restart, idle timeout) since
  // its last use: a transport failure on one is retried once on a new connection. The
  // command may have run before its reply was lost, so every `op` must be safe to run
  // twice: idempotent, or carrying a request token (see kOutcomeTtlMs).
  for (int attempt = 0;; ++attempt) {
    bool pooled = false;
    try {
      Lease lease(*this);
      pooled = lease.pooled();
      auto result = op(lease.client());
      lease.succeeded();
      return result;
    } catch (const std::logic_error&) {
      throw;
    } catch (const ErrorReply& e) {
      if (std::string(e.what()).find("not an integer") != std::string::npos) {
        throw std::invalid_argument("the value is not an integer counter");
      }
      unavailable(what, e.what());
    } catch (const Poco::Exception& e) {  // transport: refused, reset, timed out, EOF
      if (pooled && attempt == 0) continue;
      unavailable(what, e.displayText());
    } catch (const std::exception& e) {
      unavailable(what, e.what());
    }
  }
}

bool RedisSharedStore::ping() {
  try {
    Lease lease(*this);
    Array command;
    command << "PING";
    run(lease.client(), command);
    lease.succeeded();
    return true;
  } catch (const std::exception&) {
    return false;
  }
}

std::optional<std::string> RedisSharedStore::get(const std::string& key) {
  return withClient("get", [&](Client& client) {
    Array command;
    command << "GET" << key;
    return bulkOf(run(client, command));
  });
}

void RedisSharedStore::set(const std::string& key, const std::string& value, Ttl ttl) {
  withClient("set", [&](Client& client) {
    Array command;
    command << "SET" << key << value;
    if (ttl.count() > 0) command << "PX" << std::to_string(ttl.count());
    run(client, command);
    return true;  // withClient needs a value to hand back
  });
}

bool RedisSharedStore::setIfAbsent(const std::string& key, const std::string& value, Ttl ttl) {
  const std::string token = requestToken();
  return withClient("set-if-absent", [&](Client& client) {
    Array command;
    command << "EVAL" << kSetIfAbsentScript << "2" << key << outcomeKey(key, token) << value
            << std::to_string(ttl.count()) << kOutcomeTtlMs;
    return integerOf(run(client, command)) == 1;
  });
}

bool RedisSharedStore::remove(const std::string& key) {
  return withClient("delete", [&](Client& client) {
    Array command;
    command << "DEL" << key;
    return integerOf(run(client, command)) > 0;
  });
}

std::optional<std::string> RedisSharedStore::take(const std::string& key) {
  const std::string token = requestToken();
  return withClient("take", [&](Client& client) {
    Array command;
    command << "EVAL" << kTakeScript << "2" << key << outcomeKey(key, token) << kOutcomeTtlMs;
    return bulkOf(run(client, command));
  });
}

std::optional<std::int64_t> RedisSharedStore::ttlLeft(const std::string& key) {
  return withClient("ttl", [&](Client& client) {
    Array command;
    command << "PTTL" << key;
    const std::int64_t left = integerOf(run(client, command));
    if (left == -2) return std::optional<std::int64_t>();
    return std::optional<std::int64_t>(left < 0 ? 0 : left);
  });
}

std::int64_t RedisSharedStore::increment(const std::string& key, std::int64_t delta, Ttl ttl) {
  const std::string token = requestToken();
  return withClient("increment", [&](Client& client) {
    Array command;
    command << "EVAL" << kIncrementScript << "2" << key << outcomeKey(key, token)
            << std::to_string(delta) << std::to_string(ttl.count()) << kOutcomeTtlMs;
    return integerOf(run(client, command));
  });
}

WindowDecision RedisSharedStore::acquireSlot(const std::string& key, std::int64_t limit, Ttl window,
                                             std::int64_t now_ms) {
  if (limit < 1) throw std::invalid_argument("a sliding window needs a limit of at least 1");
  const std::string member = uniqueMember(now_ms);  // the same on a retry
  return withClient("sliding window", [&](Client& client) {
    Array command;
    command << "EVAL" << kWindowScript << "1" << key << std::to_string(now_ms)
            << std::to_string(window.count()) << std::to_string(limit) << member;
    const RedisType::Ptr reply = run(client, command);
    const auto* reply_array = dynamic_cast<const Poco::Redis::Type<Array>*>(reply.get());
    if (reply_array == nullptr || reply_array->value().size() != 3) {
      throw Poco::BadCastException("unexpected sliding-window reply");
    }
    WindowDecision decision;
    const Array& values = reply_array->value();
    decision.allowed = values.get<Poco::Int64>(0) == 1;
    decision.count = values.get<Poco::Int64>(1);
    decision.retry_after_ms = values.get<Poco::Int64>(2);
    return decision;
  });
}

}  // namespace skinpulse::state
