#pragma once

// sdk::Clock backed by std::chrono::system_clock.

#include "skinpulse/sdk/host.hpp"

#include <cstdint>

namespace skinpulse::plugin {

class SystemClock final : public sdk::Clock {
 public:
  std::int64_t nowUnixMillis() const override;
};

/// A process-wide SystemClock, the default of HostServices::clock.
const sdk::Clock& systemClock();

}  // namespace skinpulse::plugin
