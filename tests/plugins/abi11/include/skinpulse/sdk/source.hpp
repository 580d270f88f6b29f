#pragma once

// MarketSource: a plugin that fetches current prices from one market.
//
// The host calls fetch() from its scheduler every `interval_seconds` of the instance's
// section, never concurrently for one instance, on a worker thread. A fetch must finish
// within the HTTP timeouts it sets; it must not sleep, spawn threads or retry in a loop:
// the scheduler owns retries, back-off and Retry-After.

#include "skinpulse/sdk/status.hpp"
#include "skinpulse/sdk/types.hpp"

#include <cstdint>
#include <optional>
#include <vector>

namespace skinpulse::sdk {

/// What one poll produced. On failure `observations` is ignored; with
/// Status::Code::kRateLimited, `retry_after_seconds` (when known) delays the next poll.
struct FetchResult {
  Status status;
  std::vector<Observation> observations;
  std::optional<std::int64_t> retry_after_seconds;
};

class MarketSource {
 public:
  virtual FetchResult fetch() = 0;

 protected:
  // Instances are destroyed by the descriptor's destroy(), never by the host directly.
  virtual ~MarketSource() = default;
};

}  // namespace skinpulse::sdk
