#pragma once

// RateLimiter: at most `limit` requests per client IP in any sliding 60-second window
// (docs/api.md §5), on the shared store, so every instance sharing a Redis shares the
// budget. Refused requests are not counted, so a client that backs off for Retry-After
// seconds is admitted again.

#include "state/SharedStore.hpp"

#include <cstdint>
#include <functional>
#include <string>

namespace skinpulse::auth {

/// The budget of the sign-in endpoints (docs/api.md §5), [auth] rate_limit_per_minute.
inline constexpr const char* kAuthRateLimitScope = "auth";

class RateLimiter {
 public:
  using Clock = std::function<std::int64_t()>;  ///< Unix milliseconds

  /// `scope` separates budgets ("auth"); `window_ms` is 60000 in the daemon.
  RateLimiter(state::SharedStore& store, std::string scope, std::int64_t limit,
              std::int64_t window_ms = 60000, Clock clock = {});

  struct Decision {
    bool allowed = true;
    std::int64_t retry_after_seconds = 0;  ///< when refused: ≥ 1, rounded up
  };

  /// Counts one request of `client` when allowed. Throws StoreUnavailable.
  Decision admit(const std::string& client) const;
  /// The budget's name: routes name it in RouteOptions::rate_limit_scope.
  const std::string& scope() const { return scope_; }

 private:
  state::SharedStore& store_;
  std::string scope_;
  std::int64_t limit_;
  std::int64_t window_ms_;
  Clock clock_;
};

}  // namespace skinpulse::auth
