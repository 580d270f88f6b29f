#pragma once

// WsModule: live updates (docs/api.md §7). Owns the event bus (ADR 0005), the WebSocket
// hub and its reactors (ADR 0004), the GET /api/v1/ws endpoint, and the cycle observer
// that publishes each stored cycle's prices and volatility on the bus.

#include "events/EventBus.hpp"
#include "module/Module.hpp"
#include "ws/LiveHub.hpp"
#include "ws/LiveUpdates.hpp"
#include "ws/WsApi.hpp"
#include "ws/WsOptions.hpp"

#include <memory>

namespace skinpulse::ws {

class WsModule final : public module::Module {
 public:
  /// `volatility` gives the 24h Volatility object of an item for the volatility frames.
  WsModule(const WsOptions& options, VolatilityProvider volatility);
  ~WsModule() override;

  std::string_view name() const override { return "ws"; }
  void registerRoutes(http::Router& router) override { api_->registerRoutes(router); }
  void start() override;
  bool stop() override;

  /// The ingestion cycle's observer that publishes live updates; add it after the
  /// metrics engine, whose snapshot of the same cycle it reads.
  CycleObserver& updates() { return *updates_; }
  /// The hub, for frames to one user's signed-in connections (alerts).
  LiveHub& hub() { return *hub_; }

 private:
  std::unique_ptr<events::EventBus> bus_;
  std::unique_ptr<LiveHub> hub_;
  std::unique_ptr<WsApi> api_;
  std::unique_ptr<LiveUpdates> updates_;
};

}  // namespace skinpulse::ws
