#pragma once

// RateStore: exchange rates as the rates instances reported them (docs/api.md §14), one
// row per (currency, instance): the newest that instance gave. The daemon loads them all
// at start, so prices convert before the first poll of a rates instance returns.

#include <cstdint>
#include <string>
#include <vector>

namespace skinpulse::store {

struct RateRecord {
  std::string currency;  ///< ISO 4217
  std::string instance;  ///< NAME of [rates.NAME]
  std::int64_t numerator = 1;
  std::int64_t denominator = 1;
  std::int64_t rate_time = 0;   ///< when the rate is from (the upstream's date)
  std::int64_t fetched_at = 0;  ///< when the daemon received it
};

class RateStore {
 public:
  virtual ~RateStore() = default;

  /// Stores each rate unless its row already holds a newer one (by rate_time), in one
  /// transaction.
  virtual void storeRates(const std::vector<RateRecord>& rates) = 0;
  /// Every row, by currency then instance.
  virtual std::vector<RateRecord> allRates() = 0;
};

}  // namespace skinpulse::store
