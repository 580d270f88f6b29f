#include "plugin/SystemClock.hpp"

#include <chrono>

namespace skinpulse::plugin {

std::int64_t SystemClock::nowUnixMillis() const {
  const auto now = std::chrono::system_clock::now().time_since_epoch();
  return std::chrono::duration_cast<std::chrono::milliseconds>(now).count();
}

const sdk::Clock& systemClock() {
  static const SystemClock clock;
  return clock;
}

}  // namespace skinpulse::plugin
