#include "ws/WsModule.hpp"

#include "common/Log.hpp"

namespace skinpulse::ws {

WsModule::WsModule(const WsOptions& options, VolatilityProvider volatility) {
  bus_ = events::makeEventBus(options.redis_url);
  hub_ = std::make_unique<LiveHub>(options.hub);
  bus_->subscribe([hub = hub_.get()](const events::UpdateBatchPtr& batch) { hub->publish(batch); });
  api_ = std::make_unique<WsApi>(*hub_, options.signed_in_origin);
  updates_ = std::make_unique<LiveUpdates>(*bus_, std::move(volatility));
}

WsModule::~WsModule() = default;

void WsModule::start() {
  hub_->start();
  bus_->start();
  log::main().info("live updates: {} event bus", bus_->name());
}

bool WsModule::stop() {
  hub_->stop();
  bus_->stop();
  return true;
}

}  // namespace skinpulse::ws
