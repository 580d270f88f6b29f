#pragma once

// RatesPoller: polls every enabled rates instance (docs/api.md §14) on one background
// thread: at start, then every interval_seconds; after a failure again after
// min(interval, 300 s) doubling up to the interval (a 429's Retry-After, up to an hour,
// wins). Each poll's valid rates are stored (RateStore: the newest per currency and
// instance) and offered to the RateBook, where the newest rate of a currency wins.
// A rate the daemon cannot use (unknown code, USD, a zero or oversized fraction) is
// skipped with a warning; the others are kept.
//
// Thread safety: status() may be called from any thread.

#include "skinpulse/sdk/rates.hpp"

#include "common/PeriodicTask.hpp"
#include "currency/RateBook.hpp"
#include "rates/RatesOptions.hpp"
#include "store/RateStore.hpp"

#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace skinpulse::rates {

struct RatesStatus {
  std::string name;
  std::string plugin;
  std::optional<std::int64_t> last_poll;
  std::optional<std::int64_t> last_success;
  std::string last_error;
  std::size_t rates = 0;  ///< usable rates of the last successful poll
};

class RatesPoller {
 public:
  struct Instance {
    RatesOptions options;
    sdk::RateSource* source = nullptr;  ///< owned by the caller; outlives the poller
  };
  using Clock = std::function<std::int64_t()>;

  /// `store` may be null (tests): rates then live in the book only.
  RatesPoller(std::vector<Instance> instances, currency::RateBook& book, store::RateStore* store,
              Clock clock = {});
  ~RatesPoller();

  /// Loads the stored rates into the book. Call once before start().
  void loadStored();
  void start();
  void stop();

  /// One poll of instance `index` now, on the caller's thread (the thread also uses it).
  void pollOnce(std::size_t index);

  std::vector<RatesStatus> status() const;

 private:
  void tick();

  std::vector<Instance> instances_;
  currency::RateBook& book_;
  store::RateStore* store_;
  Clock clock_;
  mutable std::mutex mutex_;  ///< status_ and schedule
  std::vector<RatesStatus> status_;
  std::vector<std::int64_t> next_poll_;
  std::vector<int> failures_;
  std::unique_ptr<common::PeriodicTask> task_;
};

/// The rates of `batch` from instance `instance` as the book takes them: codes upper
/// case, fractions reduced; unusable ones dropped and described in `skipped`.
std::vector<currency::Rate> usableRates(const std::string& instance,
                                        const std::vector<sdk::CurrencyRate>& batch,
                                        std::vector<std::string>& skipped);

}  // namespace skinpulse::rates
