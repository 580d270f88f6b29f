#pragma once

// LiveUpdates: the publishing end of live updates. After each stored ingestion cycle it
// serialises every point once into a "prices" batch, then the 24h volatility object of
// every item the cycle touched into a "volatility" batch, and publishes both on the event
// bus (docs/api.md §7). Volatility comes from the metrics engine through a narrow
// provider; without one, no volatility batches are sent (never made-up numbers).

#include "events/EventBus.hpp"
#include "ingest/CycleObserver.hpp"

#include <functional>
#include <optional>
#include <string>

namespace skinpulse::ws {

/// The pre-rendered 24h Volatility metrics object of an item, if it has one.
using VolatilityProvider = std::function<std::optional<std::string>(std::int64_t item_id)>;

class LiveUpdates final : public ingest::CycleObserver {
 public:
  LiveUpdates(events::EventBus& bus, VolatilityProvider volatility = {})
      : bus_(bus), volatility_(std::move(volatility)) {}

  void onCycle(const ingest::CycleUpdate& update) override;

  /// `{"item_id":1,"source":"...","price":123,"volume":4,"time":"...Z"}`
  static std::string renderPrice(const store::PricePoint& point);

 private:
  events::EventBus& bus_;
  VolatilityProvider volatility_;
};

}  // namespace skinpulse::ws
