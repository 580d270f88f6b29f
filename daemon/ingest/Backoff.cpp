#include "ingest/Backoff.hpp"

#include <algorithm>

namespace skinpulse::ingest {

std::int64_t backoffSeconds(std::int64_t interval_seconds, int consecutive_failures,
                            std::optional<std::int64_t> retry_after_seconds) {
  const std::int64_t interval = std::max<std::int64_t>(1, interval_seconds);
  if (retry_after_seconds) {
    return std::max(interval, std::min(*retry_after_seconds, kMaxRetryAfterSeconds));
  }
  const std::int64_t cap = std::max(interval, kMaxFailureBackoffSeconds);
  std::int64_t delay = interval;
  for (int i = 1; i < consecutive_failures && delay < cap; ++i) delay *= 2;
  return std::min(delay, cap);
}

}  // namespace skinpulse::ingest
