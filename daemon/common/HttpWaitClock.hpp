#pragma once

// HttpWaitClock: the time the calling thread spent in upstream HTTP exchanges (the host's
// HTTP client adds each exchange). A source fetch runs on its own thread, so the
// scheduler tells "waiting for the market" (fetch) from "the plugin parsing" (the rest of
// fetchQuotes) without the plugin's help or an SDK change.

#include <chrono>

namespace skinpulse::http_wait {

inline thread_local std::chrono::nanoseconds spent{0};

inline void add(std::chrono::nanoseconds duration) { spent += duration; }

/// What this thread spent since the last take(), and starts again from zero.
inline std::chrono::nanoseconds take() {
  const auto total = spent;
  spent = std::chrono::nanoseconds{0};
  return total;
}

}  // namespace skinpulse::http_wait
