#include "auth/RateLimiter.hpp"

#include "common/Time.hpp"

namespace skinpulse::auth {

RateLimiter::RateLimiter(state::SharedStore& store, std::string scope, std::int64_t limit,
                         std::int64_t window_ms, Clock clock)
    : store_(store),
      scope_(std::move(scope)),
      limit_(limit),
      window_ms_(window_ms),
      clock_(clock ? std::move(clock) : Clock([] { return time::nowMillis(); })) {}

RateLimiter::Decision RateLimiter::admit(const std::string& client) const {
  const auto window = store_.acquireSlot("ratelimit:" + scope_ + ":" + client, limit_,
                                         state::Ttl(window_ms_), clock_());
  Decision decision;
  decision.allowed = window.allowed;
  if (!window.allowed) decision.retry_after_seconds = (window.retry_after_ms + 999) / 1000;
  return decision;
}

}  // namespace skinpulse::auth
