#pragma once

// An in-process SharedStore for tests of its users: a map with expiry on a clock the
// test moves, and a switch that makes every call throw StoreUnavailable (an outage).

#include "state/SharedStore.hpp"

#include <algorithm>
#include <map>
#include <mutex>
#include <vector>

namespace skinpulse::test {

class MemorySharedStore final : public state::SharedStore {
 public:
  bool down = false;
  std::int64_t now_ms = 1'800'000'000'000;

  std::string backend() const override { return "memory"; }
  bool ping() override { return !down; }

  std::optional<std::string> get(const std::string& key) override {
    std::lock_guard lock(mutex_);
    check();
    const auto* entry = live(key);
    return entry ? std::optional<std::string>(entry->value) : std::nullopt;
  }
  void set(const std::string& key, const std::string& value, state::Ttl ttl) override {
    std::lock_guard lock(mutex_);
    check();
    entries_[key] = Entry{value, ttl.count() > 0 ? now_ms + ttl.count() : 0};
  }
  bool setIfAbsent(const std::string& key, const std::string& value, state::Ttl ttl) override {
    std::lock_guard lock(mutex_);
    check();
    if (live(key)) return false;
    entries_[key] = Entry{value, ttl.count() > 0 ? now_ms + ttl.count() : 0};
    return true;
  }
  bool remove(const std::string& key) override {
    std::lock_guard lock(mutex_);
    check();
    const bool existed = live(key) != nullptr;
    entries_.erase(key);
    return existed;
  }
  std::optional<std::string> take(const std::string& key) override {
    std::lock_guard lock(mutex_);
    check();
    const auto* entry = live(key);
    if (!entry) return std::nullopt;
    std::string value = entry->value;
    entries_.erase(key);
    return value;
  }
  std::optional<std::int64_t> ttlLeft(const std::string& key) override {
    std::lock_guard lock(mutex_);
    check();
    const auto* entry = live(key);
    if (!entry) return std::nullopt;
    return entry->expires_ms == 0 ? 0 : entry->expires_ms - now_ms;
  }
  std::int64_t increment(const std::string&, std::int64_t, state::Ttl) override {
    throw std::logic_error("not used by these tests");
  }
  state::WindowDecision acquireSlot(const std::string& key, std::int64_t limit, state::Ttl window,
                                    std::int64_t now) override {
    std::lock_guard lock(mutex_);
    check();
    auto& times = windows_[key];
    std::erase_if(times, [&](std::int64_t t) { return t <= now - window.count(); });
    state::WindowDecision decision;
    if (static_cast<std::int64_t>(times.size()) < limit) {
      times.push_back(now);
      decision.allowed = true;
    } else {
      decision.retry_after_ms = std::max<std::int64_t>(1, times.front() + window.count() - now);
    }
    decision.count = static_cast<std::int64_t>(times.size());
    return decision;
  }

  std::size_t size() {
    std::lock_guard lock(mutex_);
    std::size_t n = 0;
    for (const auto& [key, entry] : entries_) n += live(key) ? 1 : 0;
    for (const auto& [key, times] : windows_) n += times.empty() ? 0 : 1;
    return n;
  }

 private:
  std::map<std::string, std::vector<std::int64_t>> windows_;
  struct Entry {
    std::string value;
    std::int64_t expires_ms = 0;  ///< 0: never
  };
  void check() const {
    if (down) throw state::StoreUnavailable("memory store is down");
  }
  const Entry* live(const std::string& key) const {
    const auto found = entries_.find(key);
    if (found == entries_.end()) return nullptr;
    if (found->second.expires_ms != 0 && found->second.expires_ms <= now_ms) return nullptr;
    return &found->second;
  }
  std::mutex mutex_;
  std::map<std::string, Entry> entries_;
};

}  // namespace skinpulse::test
