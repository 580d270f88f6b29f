#pragma once

// LiveUpdates: the publishing end of live updates. After each stored ingestion cycle it
// serialises every point once into a "prices" batch, then the 24h volatility object of
// every item the cycle touched into a "volatility" batch, and publishes both on the event
// bus (docs/api.md §7). Volatility comes from the metrics engine through a narrow
// provider; without one, no volatility batches are sent (never made-up numbers).
//
// As one observer (onCycle) it publishes both after the metrics engine. The daemon uses
// the two halves instead (pricesObserver() before the metrics engine, volatilityObserver()
// after it): the prices frames do not need this cycle's metrics, so they leave while the
// metrics are computed (ADR 0021). The order on the wire stays prices, then volatility.

#include "events/EventBus.hpp"
#include "ingest/CycleObserver.hpp"

#include <functional>
#include <optional>
#include <string>

namespace skinpulse::ws {

/// The pre-rendered 24h Volatility metrics object of an item, if it has one.
using VolatilityProvider = std::function<std::optional<std::string>(std::int64_t item_id)>;

class LiveUpdates final : public CycleObserver {
 public:
  LiveUpdates(events::EventBus& bus, VolatilityProvider volatility = {})
      : bus_(bus), volatility_(std::move(volatility)) {}

  void onCycle(const CycleUpdate& update) override;

  /// Publishes the cycle's prices batch alone (nothing follows it).
  CycleObserver& pricesObserver() { return prices_half_; }
  /// Publishes the cycle's volatility batch alone; add after the metrics engine.
  CycleObserver& volatilityObserver() { return volatility_half_; }

  /// `{"item_id":1,"source":"...","price":123,"volume":4,"time":"...Z"}`
  static std::string renderPrice(const PricePoint& point);

 private:
  /// The prices batch of `update` (empty: no points).
  static events::UpdateBatchPtr pricesOf(const CycleUpdate& update, bool followed);
  /// The volatility batch of the items of `entries` (ordered by item); null when there is
  /// no provider or no item has an object.
  events::UpdateBatchPtr volatilityOf(const std::vector<std::int64_t>& items,
                                      std::int64_t cycle) const;

  class Half final : public CycleObserver {
   public:
    Half(LiveUpdates& owner, bool prices) : owner_(owner), prices_(prices) {}
    void onCycle(const CycleUpdate& update) override;

   private:
    LiveUpdates& owner_;
    bool prices_;
  };

  events::EventBus& bus_;
  VolatilityProvider volatility_;
  Half prices_half_{*this, true};
  Half volatility_half_{*this, false};
};

}  // namespace skinpulse::ws
