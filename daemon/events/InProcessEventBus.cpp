#include "events/InProcessEventBus.hpp"

#include "common/Log.hpp"

namespace skinpulse::events {

void deliverToAll(const std::vector<BatchHandler>& handlers, const UpdateBatchPtr& batch) {
  for (const auto& handler : handlers) {
    try {
      handler(batch);
    } catch (const std::exception& error) {
      log::main().error("live updates: a receiver of {} failed: {}", batch->kind(), error.what());
    }
  }
}

void InProcessEventBus::publish(const UpdateBatchPtr& batch) { deliverToAll(handlers_, batch); }

}  // namespace skinpulse::events
