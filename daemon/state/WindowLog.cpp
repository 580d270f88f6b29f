#include "state/WindowLog.hpp"

#include <algorithm>
#include <charconv>
#include <stdexcept>

namespace skinpulse::state {

WindowLog WindowLog::parse(const std::string& text) {
  WindowLog log;
  const char* p = text.data();
  const char* end = p + text.size();
  while (p < end) {
    const char* comma = std::find(p, end, ',');
    std::int64_t value = 0;
    const auto [next, error] = std::from_chars(p, comma, value);
    if (error == std::errc() && next == comma) log.times_.push_back(value);
    p = comma == end ? end : comma + 1;
  }
  std::sort(log.times_.begin(), log.times_.end());
  return log;
}

std::string WindowLog::serialise() const {
  std::string out;
  for (const auto t : times_) {
    if (!out.empty()) out += ',';
    out += std::to_string(t);
  }
  return out;
}

WindowDecision WindowLog::admit(std::int64_t limit, std::int64_t window_ms, std::int64_t now_ms) {
  if (limit < 1) throw std::invalid_argument("a sliding window needs a limit of at least 1");
  const std::int64_t edge = now_ms - window_ms;
  times_.erase(times_.begin(), std::upper_bound(times_.begin(), times_.end(), edge));
  WindowDecision decision;
  if (static_cast<std::int64_t>(times_.size()) < limit) {
    times_.push_back(now_ms);
    std::sort(times_.begin(), times_.end());
    decision.allowed = true;
    decision.count = static_cast<std::int64_t>(times_.size());
    return decision;
  }
  decision.count = static_cast<std::int64_t>(times_.size());
  // The window admits again once the (size − limit + 1)-th oldest time has left it.
  const auto leaving = times_[times_.size() - static_cast<std::size_t>(limit)];
  decision.retry_after_ms = std::max<std::int64_t>(1, leaving + window_ms - now_ms);
  return decision;
}

}  // namespace skinpulse::state
