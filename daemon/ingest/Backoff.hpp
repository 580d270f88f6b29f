#pragma once

// How long a failing source waits before its next poll (docs/api.md, "Ingestion").

#include <cstdint>
#include <optional>

namespace skinpulse::ingest {

/// A failure that is no rate limit doubles the wait from `interval_seconds` with every
/// consecutive failure, but never beyond max(interval_seconds, kMaxFailureBackoffSeconds):
/// a market that recovers is polled again within five minutes. A 429 waits its
/// Retry-After, at least one interval and at most kMaxRetryAfterSeconds, so a hostile or
/// broken header cannot silence a source for longer than an hour.
inline constexpr std::int64_t kMaxFailureBackoffSeconds = 300;
inline constexpr std::int64_t kMaxRetryAfterSeconds = 3600;

/// Seconds until the next poll after the `consecutive_failures`-th failure in a row (≥ 1).
std::int64_t backoffSeconds(std::int64_t interval_seconds, int consecutive_failures,
                            std::optional<std::int64_t> retry_after_seconds);

}  // namespace skinpulse::ingest
