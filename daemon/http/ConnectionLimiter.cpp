#include "http/ConnectionLimiter.hpp"

namespace skinpulse::http {

ConnectionLimiter::ConnectionLimiter(std::size_t max_total, std::size_t max_per_client,
                                     std::size_t max_websockets_per_client)
    : state_(std::make_shared<State>()) {
  state_->max_total = max_total;
  state_->max_per_client = max_per_client;
  state_->max_websockets_per_client = max_websockets_per_client;
  // 90 %: below it everyone fits anyway; from it on, a newcomer displaces an idle hog
  // instead of waiting for the hard refusal at 100 %.
  state_->evict_from = max_total - max_total / 10;
}

void ConnectionLimiter::State::uncount(Entry& entry) {
  if (!entry.counted) return;
  entry.counted = false;
  const auto it = clients.find(entry.key);
  if (it != clients.end()) {
    Client& client = it->second;
    client.entries.erase(&entry);
    --client.connections;
    if (entry.websocket) --client.websockets;
    if (client.connections == 0) clients.erase(it);
  }
  --total;
}

ConnectionLimiter::Entry* ConnectionLimiter::State::evictionVictim(
    const std::string& newcomer) const {
  const std::size_t clients_with_newcomer = clients.size() + (clients.count(newcomer) ? 0 : 1);
  const std::size_t fair_share = max_total / clients_with_newcomer;
  Entry* victim = nullptr;
  std::size_t victim_count = 0;
  for (const auto& [key, client] : clients) {
    if (key == newcomer || client.connections <= fair_share || client.connections <= victim_count) {
      continue;
    }
    Entry* oldest = nullptr;
    std::int64_t oldest_since = 0;
    for (Entry* entry : client.entries) {
      const auto since = entry->idle_since.load(std::memory_order_relaxed);
      if (since == 0 || entry->websocket || !entry->evict) continue;
      if (oldest == nullptr || since < oldest_since) {
        oldest = entry;
        oldest_since = since;
      }
    }
    if (oldest != nullptr) {
      victim = oldest;
      victim_count = client.connections;
    }
  }
  return victim;
}

std::optional<ConnectionSlot> ConnectionLimiter::tryAcquire(const std::string& key,
                                                            bool via_proxy) {
  std::function<void()> evict;
  std::optional<ConnectionSlot> slot;
  {
    std::lock_guard lock(state_->mutex);
    const auto known = state_->clients.find(key);
    const std::size_t held = known == state_->clients.end() ? 0 : known->second.connections;
    if (!via_proxy && held >= state_->max_per_client) return std::nullopt;
    if (state_->total >= state_->evict_from) {
      if (Entry* victim = state_->evictionVictim(key)) {
        evict = victim->evict;
        victim->idle_since.store(0, std::memory_order_relaxed);
        state_->uncount(*victim);
        ++state_->evictions;
      }
    }
    if (state_->total >= state_->max_total) return std::nullopt;
    auto entry = std::make_shared<Entry>();
    entry->key = key;
    Client& client = state_->clients[key];
    client.entries.insert(entry.get());
    ++client.connections;
    ++state_->total;
    slot.emplace(state_, std::move(entry));
  }
  if (evict) evict();
  return slot;
}

std::size_t ConnectionLimiter::total() const {
  std::lock_guard lock(state_->mutex);
  return state_->total;
}

std::size_t ConnectionLimiter::countOf(const std::string& key) const {
  std::lock_guard lock(state_->mutex);
  const auto it = state_->clients.find(key);
  return it == state_->clients.end() ? 0 : it->second.connections;
}

std::size_t ConnectionLimiter::websocketsOf(const std::string& key) const {
  std::lock_guard lock(state_->mutex);
  const auto it = state_->clients.find(key);
  return it == state_->clients.end() ? 0 : it->second.websockets;
}

std::uint64_t ConnectionLimiter::evictions() const {
  std::lock_guard lock(state_->mutex);
  return state_->evictions;
}

bool ConnectionHandle::claimWebSocket() const {
  if (!state_) return true;
  const auto entry = entry_.lock();
  if (!entry) return false;
  std::lock_guard lock(state_->mutex);
  if (!entry->counted) return false;
  if (entry->websocket) return true;
  auto& client = state_->clients[entry->key];
  if (client.websockets >= state_->max_websockets_per_client) return false;
  ++client.websockets;
  entry->websocket = true;
  entry->idle_since.store(0, std::memory_order_relaxed);
  return true;
}

void ConnectionSlot::release() {
  if (!state_) return;
  {
    std::lock_guard lock(state_->mutex);
    state_->uncount(*entry_);
  }
  state_.reset();
  entry_.reset();
}

bool ConnectionSlot::rekey(const std::string& key) {
  if (!state_) return true;
  std::lock_guard lock(state_->mutex);
  if (!entry_->counted) return true;  // evicted: closing anyway
  if (entry_->key == key) return true;
  auto& target = state_->clients[key];
  if (target.connections >= state_->max_per_client ||
      (entry_->websocket && target.websockets >= state_->max_websockets_per_client)) {
    if (target.connections == 0) state_->clients.erase(key);
    return false;
  }
  auto& source = state_->clients[entry_->key];
  source.entries.erase(entry_.get());
  --source.connections;
  if (entry_->websocket) --source.websockets;
  if (source.connections == 0) state_->clients.erase(entry_->key);
  target.entries.insert(entry_.get());
  ++target.connections;
  if (entry_->websocket) ++target.websockets;
  entry_->key = key;
  return true;
}

std::string ConnectionSlot::key() const {
  if (!state_) return {};
  std::lock_guard lock(state_->mutex);
  return entry_->key;
}

void ConnectionSlot::setIdle(bool idle) {
  if (!entry_) return;
  std::int64_t since = 0;
  if (idle) {
    since = std::chrono::duration_cast<std::chrono::nanoseconds>(
                std::chrono::steady_clock::now().time_since_epoch())
                .count();
    if (since == 0) since = 1;
  }
  entry_->idle_since.store(since, std::memory_order_relaxed);
}

void ConnectionSlot::setEvictor(std::function<void()> evict) {
  if (!state_) return;
  std::lock_guard lock(state_->mutex);
  entry_->evict = std::move(evict);
}

}  // namespace skinpulse::http
