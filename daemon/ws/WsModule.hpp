#pragma once

// WsModule: live updates (docs/api.md §7). Owns the event bus (ADR 0005), the WebSocket
// hub and its reactors (ADR 0004), the GET /api/v1/ws endpoint, and the cycle observer
// that publishes each stored cycle's prices and volatility on the bus.

#include "common/PeriodicTask.hpp"
#include "events/EventBus.hpp"
#include "events/UserFrames.hpp"
#include "module/Module.hpp"
#include "module/Services.hpp"
#include "state/SessionEnds.hpp"
#include "ws/LiveHub.hpp"
#include "ws/LiveUpdates.hpp"
#include "ws/SessionCheck.hpp"
#include "ws/WsApi.hpp"
#include "ws/WsOptions.hpp"

#include <memory>

namespace skinpulse::metrics {
class MetricsEngine;
}

namespace skinpulse::ws {

class WsModule final : public module::Module, public events::UserFrames, public state::SessionEnds {
 public:
  /// The event bus of [storage] redis_url; a handshake from BASE_URL's origin with a
  /// session is signed in. Provides events::UserFrames (alerts' `ws` deliveries) and
  /// state::SessionEnds (the auth module's logouts and rotations).
  explicit WsModule(module::Services& services);
  ~WsModule() override;

  /// Publishes every cycle after the metrics observers (CycleHooks, stage kPublish): the
  /// volatility frames read the registry's metrics::MetricsEngine snapshot of that cycle.
  void attach(module::Services& services) override;
  std::size_t sendToUser(const std::string& user_id, const std::string& frame) override {
    return hub_->sendToUser(user_id, frame);
  }

  /// Announces the end on the event bus: every instance (this one included) closes the
  /// session's signed-in sockets.
  void sessionEnded(const std::string& session_key) override {
    bus_->publishSessionEnd(session_key);
  }

  std::string_view name() const override { return "ws"; }
  void registerRoutes(http::Router& router) override { api_->registerRoutes(router); }
  void start() override;
  bool stop() override;

 private:
  std::unique_ptr<events::EventBus> bus_;
  std::unique_ptr<LiveHub> hub_;
  std::unique_ptr<WsApi> api_;
  std::unique_ptr<LiveUpdates> updates_;
  std::unique_ptr<SessionCheck> session_check_;
  std::unique_ptr<common::PeriodicTask> session_check_task_;
  const metrics::MetricsEngine* metrics_ = nullptr;  ///< set by attach()
};

}  // namespace skinpulse::ws
