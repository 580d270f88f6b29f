#pragma once

// EcbRates: polls the ECB's daily reference rates (EcbParser.hpp) and reports them per
// USD. Keys: url (default the ECB's eurofxref-daily.xml), max_bytes (default 1 MiB).

#include "skinpulse/sdk/host.hpp"
#include "skinpulse/sdk/rates.hpp"

#include <cstddef>
#include <string>

namespace skinpulse::plugins::ecb {

inline constexpr const char* kDefaultUrl =
    "https://www.ecb.europa.eu/stats/eurofxref/eurofxref-daily.xml";

class EcbRates final : public sdk::RateSource {
 public:
  /// Throws std::invalid_argument for a malformed key.
  explicit EcbRates(sdk::Host& host);
  sdk::RateBatch fetchRates() override;

 private:
  sdk::Host& host_;
  std::string url_;
  std::size_t max_bytes_;
};

}  // namespace skinpulse::plugins::ecb
