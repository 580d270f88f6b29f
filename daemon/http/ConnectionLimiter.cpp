#include "http/ConnectionLimiter.hpp"

namespace skinpulse::http {

ConnectionLimiter::ConnectionLimiter(std::size_t max_total, std::size_t max_per_address)
    : state_(std::make_shared<State>()) {
  state_->max_total = max_total;
  state_->max_per_address = max_per_address;
}

std::optional<ConnectionSlot> ConnectionLimiter::tryAcquire(const std::string& address) {
  std::lock_guard lock(state_->mutex);
  if (state_->total >= state_->max_total) return std::nullopt;
  auto& count = state_->per_address[address];
  if (count >= state_->max_per_address) {
    if (count == 0) state_->per_address.erase(address);
    return std::nullopt;
  }
  ++count;
  ++state_->total;
  return ConnectionSlot(state_, address);
}

std::size_t ConnectionLimiter::total() const {
  std::lock_guard lock(state_->mutex);
  return state_->total;
}

std::size_t ConnectionLimiter::countOf(const std::string& address) const {
  std::lock_guard lock(state_->mutex);
  const auto it = state_->per_address.find(address);
  return it == state_->per_address.end() ? 0 : it->second;
}

void ConnectionSlot::release() {
  if (!state_) return;
  {
    std::lock_guard lock(state_->mutex);
    const auto it = state_->per_address.find(address_);
    if (it != state_->per_address.end() && --it->second == 0) state_->per_address.erase(it);
    --state_->total;
  }
  state_.reset();
}

}  // namespace skinpulse::http
