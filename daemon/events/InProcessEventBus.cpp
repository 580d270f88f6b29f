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

void deliverToAll(const std::vector<SessionEndHandler>& handlers, const std::string& session_key) {
  for (const auto& handler : handlers) {
    try {
      handler(session_key);
    } catch (const std::exception& error) {
      log::main().error("live updates: a receiver of a session end failed: {}", error.what());
    }
  }
}

void InProcessEventBus::publishSessionEnd(const std::string& session_key) {
  deliverToAll(session_handlers_, session_key);
}

void InProcessEventBus::publish(const UpdateBatchPtr& batch) { deliverToAll(handlers_, batch); }

}  // namespace skinpulse::events
