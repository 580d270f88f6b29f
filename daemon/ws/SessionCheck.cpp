#include "ws/SessionCheck.hpp"

#include "common/Log.hpp"

namespace skinpulse::ws {

std::size_t SessionCheck::run() {
  std::size_t gone = 0;
  for (const auto& key : hub_.sessionKeys()) {
    try {
      if (store_.get(key)) continue;
    } catch (const state::StoreUnavailable& e) {
      log::main().warn("live updates: sessions not checked: {}", e.what());
      return gone;
    }
    hub_.endSession(key);
    ++gone;
  }
  if (gone > 0) log::main().info("live updates: {} ended session(s) found by the check", gone);
  return gone;
}

}  // namespace skinpulse::ws
