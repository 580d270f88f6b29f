#include "state/MeasuredSharedStore.hpp"

#include "telemetry/DaemonMetrics.hpp"

#include <chrono>

namespace skinpulse::state {
namespace {

constexpr std::array<std::string_view, MeasuredSharedStore::kCount> kNames = {
    "ping", "get",      "set",       "set_if_absent", "remove",
    "take", "ttl_left", "increment", "acquire_slot"};

}  // namespace

MeasuredSharedStore::MeasuredSharedStore(std::unique_ptr<SharedStore> inner)
    : inner_(std::move(inner)) {
  auto& metrics = telemetry::metrics();
  const std::string backend = inner_->backend();
  for (std::size_t i = 0; i < kCount; ++i) {
    durations_[i] = &metrics.shared_store_duration.labels({backend, kNames[i]});
    errors_[i] = &metrics.shared_store_errors.labels({backend, kNames[i]});
  }
}

template <class Call>
auto MeasuredSharedStore::measure(Operation operation, Call&& call) -> decltype(call()) {
  const auto started = std::chrono::steady_clock::now();
  const auto observe = [&] {
    durations_[operation]->observe(
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count());
  };
  try {
    if constexpr (std::is_void_v<decltype(call())>) {
      call();
      observe();
    } else {
      auto result = call();
      observe();
      return result;
    }
  } catch (const StoreUnavailable&) {
    observe();
    errors_[operation]->inc();
    throw;
  }
}

bool MeasuredSharedStore::ping() {
  return measure(kPing, [&] {
    const bool ok = inner_->ping();
    if (!ok) errors_[kPing]->inc();  // ping answers false instead of throwing
    return ok;
  });
}

std::optional<std::string> MeasuredSharedStore::get(const std::string& key) {
  return measure(kGet, [&] { return inner_->get(key); });
}

void MeasuredSharedStore::set(const std::string& key, const std::string& value, Ttl ttl) {
  measure(kSet, [&] { inner_->set(key, value, ttl); });
}

bool MeasuredSharedStore::setIfAbsent(const std::string& key, const std::string& value, Ttl ttl) {
  return measure(kSetIfAbsent, [&] { return inner_->setIfAbsent(key, value, ttl); });
}

bool MeasuredSharedStore::remove(const std::string& key) {
  return measure(kRemove, [&] { return inner_->remove(key); });
}

std::optional<std::string> MeasuredSharedStore::take(const std::string& key) {
  return measure(kTake, [&] { return inner_->take(key); });
}

std::optional<std::int64_t> MeasuredSharedStore::ttlLeft(const std::string& key) {
  return measure(kTtlLeft, [&] { return inner_->ttlLeft(key); });
}

std::int64_t MeasuredSharedStore::increment(const std::string& key, std::int64_t delta, Ttl ttl) {
  return measure(kIncrement, [&] { return inner_->increment(key, delta, ttl); });
}

WindowDecision MeasuredSharedStore::acquireSlot(const std::string& key, std::int64_t limit,
                                                Ttl window, std::int64_t now_ms) {
  return measure(kAcquireSlot, [&] { return inner_->acquireSlot(key, limit, window, now_ms); });
}

}  // namespace skinpulse::state
