#include "portfolio/ImportThrottle.hpp"

namespace skinpulse::portfolio {
namespace {

std::string failuresKey(const std::string& subject) { return "portfolio:failures:" + subject; }
std::string pauseKey(const std::string& subject) { return "portfolio:paused:" + subject; }
std::string recentKey(const std::string& subject) { return "portfolio:failed:" + subject; }

}  // namespace

ImportThrottle::ImportThrottle(state::SharedStore& store, ImportThrottleOptions options,
                               Clock clock)
    : store_(store), options_(options), clock_(std::move(clock)) {}

std::optional<std::int64_t> ImportThrottle::retryAfterSeconds(const std::string& subject) {
  const auto left_ms = store_.ttlLeft(pauseKey(subject));
  if (!left_ms) return std::nullopt;
  return std::max<std::int64_t>(1, (*left_ms + 999) / 1000);
}

void ImportThrottle::recordFailure(const std::string& subject) {
  // The sliding window of the shared store counts failures; once it is full (the call is
  // refused, or this failure filled it) the user pauses. A refused call records nothing,
  // so failures during a pause never stretch the window.
  const auto decision =
      store_.acquireSlot(failuresKey(subject), options_.failures, options_.window, clock_());
  if (!decision.allowed || decision.count >= options_.failures) {
    store_.set(pauseKey(subject), "1", options_.pause);
  }
  store_.set(recentKey(subject), "1", options_.window);
}

bool ImportThrottle::failedRecently(const std::string& subject) {
  return store_.get(recentKey(subject)).has_value();
}

}  // namespace skinpulse::portfolio
