#pragma once

// FixedRates: rates from configuration, `rates = EUR:0.95, JPY:151.2` (units per USD),
// for tests, for offline installs, and for "currencies" of one's own. The rates' time is
// the instance's start, so a daily feed (ecb) that reports the same currency later wins.

#include "skinpulse/sdk/host.hpp"
#include "skinpulse/sdk/rates.hpp"

#include <string_view>
#include <vector>

namespace skinpulse::plugins::fixed {

/// Parses `EUR:0.95, JPY:151.2`: comma-separated CODE:DECIMAL pairs, codes three
/// upper-case letters, each once, not USD. Throws std::invalid_argument naming the pair.
std::vector<sdk::CurrencyRate> parseFixedRates(std::string_view text);

class FixedRates final : public sdk::RateSource {
 public:
  explicit FixedRates(sdk::Host& host);
  sdk::RateBatch fetchRates() override;

 private:
  std::vector<sdk::CurrencyRate> rates_;
};

}  // namespace skinpulse::plugins::fixed
