#pragma once

// MeasuredSharedStore: a SharedStore that times every operation of the one it wraps and
// counts the ones that fail (skinpulse_shared_store_operation_duration_seconds and
// skinpulse_shared_store_errors_total, labelled by backend and operation). app/Runtime
// wraps the store it opens, so neither implementation knows about metrics.

#include "state/SharedStore.hpp"
#include "telemetry/Metrics.hpp"

#include <array>
#include <memory>

namespace skinpulse::state {

class MeasuredSharedStore final : public SharedStore {
 public:
  explicit MeasuredSharedStore(std::unique_ptr<SharedStore> inner);

  std::string backend() const override { return inner_->backend(); }
  bool ping() override;
  std::optional<std::string> get(const std::string& key) override;
  void set(const std::string& key, const std::string& value, Ttl ttl) override;
  bool setIfAbsent(const std::string& key, const std::string& value, Ttl ttl) override;
  bool remove(const std::string& key) override;
  std::optional<std::string> take(const std::string& key) override;
  std::optional<std::int64_t> ttlLeft(const std::string& key) override;
  std::int64_t increment(const std::string& key, std::int64_t delta, Ttl ttl) override;
  WindowDecision acquireSlot(const std::string& key, std::int64_t limit, Ttl window,
                             std::int64_t now_ms) override;

  enum Operation : std::size_t {
    kPing,
    kGet,
    kSet,
    kSetIfAbsent,
    kRemove,
    kTake,
    kTtlLeft,
    kIncrement,
    kAcquireSlot,
    kCount
  };

 private:
  template <class Call>
  auto measure(Operation operation, Call&& call) -> decltype(call());

  std::unique_ptr<SharedStore> inner_;
  // Resolved once: an operation costs two clock reads and two atomic adds.
  std::array<telemetry::Histogram*, kCount> durations_{};
  std::array<telemetry::Counter*, kCount> errors_{};
};

}  // namespace skinpulse::state
