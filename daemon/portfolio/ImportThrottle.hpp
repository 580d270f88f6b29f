#pragma once

// ImportThrottle: failed imports of one subject are throttled (docs/api.md, "Portfolio"):
// after 3 failures within 10 minutes, every further import waits 60 s after the last
// failure. The subject is one linked account of one user (importSubject() in
// ImportLock.hpp; docs/api.md §23.2): a failing account never pauses the others (`429
// import_cooldown` with Retry-After). A failure is an import that reached the game platform and got
// no usable inventory (private, not set up, too large, unreachable); refusals before any upstream
// call and our own store failures do not count. Kept in the shared store, so it holds on every
// instance and across restarts.
//
// Fail closed like the import lock: the operations throw state::StoreUnavailable.

#include "state/SharedStore.hpp"

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

namespace skinpulse::portfolio {

struct ImportThrottleOptions {
  std::int64_t failures = 3;                 ///< failures that start the throttle ...
  std::chrono::milliseconds window{600000};  ///< ... within this long
  std::chrono::milliseconds pause{60000};    ///< how long imports then wait
};

class ImportThrottle {
 public:
  using Clock = std::function<std::int64_t()>;  ///< Unix milliseconds

  ImportThrottle(state::SharedStore& store, ImportThrottleOptions options, Clock clock);

  /// Seconds the user must still wait (≥ 1), or nullopt when an import may run.
  std::optional<std::int64_t> retryAfterSeconds(const std::string& subject);

  /// Counts one failed import of `subject`, starting the pause when it is one too many.
  void recordFailure(const std::string& subject);

  /// Whether `subject` had a failed import within the window: its next import leaves the
  /// budget's reserve to imports without failures
  /// (net::RequestBudget::Priority::kUserAfterFailure).
  bool failedRecently(const std::string& subject);

 private:
  state::SharedStore& store_;
  ImportThrottleOptions options_;
  Clock clock_;
};

}  // namespace skinpulse::portfolio
