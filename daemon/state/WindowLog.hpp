#pragma once

// WindowLog: the admitted request times of one sliding window, oldest first, and the
// admission rule both stores share: a time t counts while t > now − window.

#include "state/SharedStore.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace skinpulse::state {

class WindowLog {
 public:
  /// "t1,t2,..." (Unix ms); malformed entries are dropped.
  static WindowLog parse(const std::string& text);
  std::string serialise() const;

  /// Forgets times outside the window ending at `now_ms`; admits and records `now_ms`
  /// when fewer than `limit` remain.
  WindowDecision admit(std::int64_t limit, std::int64_t window_ms, std::int64_t now_ms);

  const std::vector<std::int64_t>& times() const { return times_; }

 private:
  std::vector<std::int64_t> times_;
};

}  // namespace skinpulse::state
