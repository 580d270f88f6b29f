#include "access/KeyDirectory.hpp"

#include <mutex>

namespace skinpulse::access {

KeyDirectory::KeyDirectory(store::ApiKeyStore& store) : store_(store) {}

std::shared_ptr<const KeyDirectory::Entry> KeyDirectory::find(const std::string& hash) const {
  std::shared_lock lock(mutex_);
  const auto found = by_hash_.find(hash);
  return found == by_hash_.end() ? nullptr : found->second;
}

std::shared_ptr<KeyDirectory::Usage> KeyDirectory::usageOf(const std::string& id) const {
  for (const auto& [hash, entry] : by_hash_) {
    if (entry->id == id) return entry->usage;
  }
  return nullptr;
}

void KeyDirectory::reload() {
  std::uint64_t started = 0;
  {
    std::unique_lock lock(mutex_);
    started = ++generation_;
  }
  const auto keys = store_.activeKeys();  // outside the lock: lookups go on meanwhile
  std::unique_lock lock(mutex_);
  std::erase_if(pending_added_, [&](const auto& entry) { return entry.second.second < started; });
  std::erase_if(pending_removed_, [&](const auto& entry) { return entry.second < started; });
  std::unordered_map<std::string, std::shared_ptr<Usage>> kept;  // counters survive reloads
  for (const auto& [hash, entry] : by_hash_) kept.emplace(entry->id, entry->usage);
  ByHash fresh;
  fresh.reserve(keys.size() + pending_added_.size());
  const auto keep = [&](const store::ActiveApiKey& key) {
    if (pending_removed_.count(key.id)) return;
    const auto found = kept.find(key.id);
    const auto usage = found != kept.end() ? found->second : std::make_shared<Usage>();
    fresh.emplace(key.secret_hash,
                  std::make_shared<const Entry>(Entry{key.id, key.user_id, usage}));
  };
  for (const auto& key : keys) keep(key);
  for (const auto& [id, pending] : pending_added_) keep(pending.first);
  by_hash_.swap(fresh);
  lock.unlock();
  loaded_.store(true, std::memory_order_release);
}

void KeyDirectory::added(const store::ActiveApiKey& key) {
  std::unique_lock lock(mutex_);
  pending_added_[key.id] = {key, generation_};
  by_hash_[key.secret_hash] =
      std::make_shared<const Entry>(Entry{key.id, key.user_id, std::make_shared<Usage>()});
}

void KeyDirectory::removed(const std::string& id) {
  std::unique_lock lock(mutex_);
  pending_added_.erase(id);
  pending_removed_[id] = generation_;
  for (auto it = by_hash_.begin(); it != by_hash_.end(); ++it) {
    if (it->second->id == id) {
      by_hash_.erase(it);
      return;
    }
  }
}

void KeyDirectory::count(const Entry& entry, bool refused, std::int64_t now_seconds) {
  Usage& usage = *entry.usage;
  if (refused) {
    usage.pending_limited.fetch_add(1, std::memory_order_relaxed);
    usage.total_limited.fetch_add(1, std::memory_order_relaxed);
  } else {
    usage.pending_requests.fetch_add(1, std::memory_order_relaxed);
    usage.total_requests.fetch_add(1, std::memory_order_relaxed);
  }
  // Monotonic maximum: two loops counting at once never move it back.
  std::int64_t seen = usage.last_used_at.load(std::memory_order_relaxed);
  while (seen < now_seconds &&
         !usage.last_used_at.compare_exchange_weak(seen, now_seconds, std::memory_order_relaxed)) {
  }
}

void KeyDirectory::flush() {
  std::vector<std::pair<std::shared_ptr<Usage>, store::ApiKeyUsage>> taken;
  {
    std::shared_lock lock(mutex_);
    for (const auto& [hash, entry] : by_hash_) {
      Usage& usage = *entry->usage;
      const std::int64_t requests = usage.pending_requests.exchange(0);
      const std::int64_t limited = usage.pending_limited.exchange(0);
      if (requests == 0 && limited == 0) continue;
      taken.emplace_back(entry->usage, store::ApiKeyUsage{entry->id, requests, limited,
                                                          usage.last_used_at.load()});
    }
  }
  if (taken.empty()) return;
  std::vector<store::ApiKeyUsage> batch;
  batch.reserve(taken.size());
  for (const auto& [usage, counted] : taken) batch.push_back(counted);
  try {
    store_.addUsage(batch);
  } catch (...) {
    // Not lost: the next flush carries them.
    for (const auto& [usage, counted] : taken) {
      usage->pending_requests.fetch_add(counted.requests);
      usage->pending_limited.fetch_add(counted.rate_limited);
    }
    throw;
  }
}

store::ApiKeyUsage KeyDirectory::pendingUsage(const std::string& id) const {
  std::shared_lock lock(mutex_);
  const auto usage = usageOf(id);
  if (!usage) return {id, 0, 0, 0};
  return {id, usage->pending_requests.load(), usage->pending_limited.load(),
          usage->last_used_at.load()};
}

std::vector<KeyDirectory::Totals> KeyDirectory::totals() const {
  std::shared_lock lock(mutex_);
  std::vector<Totals> out;
  out.reserve(by_hash_.size());
  for (const auto& [hash, entry] : by_hash_) {
    out.push_back(
        {entry->id, entry->usage->total_requests.load(), entry->usage->total_limited.load()});
  }
  return out;
}

}  // namespace skinpulse::access
