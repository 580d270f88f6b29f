#pragma once

// InProcessEventBus: delivers each batch (and each session end) to the local receivers,
// synchronously.

#include "events/EventBus.hpp"

#include <vector>

namespace skinpulse::events {

class InProcessEventBus final : public EventBus {
 public:
  void subscribe(BatchHandler handler) override { handlers_.push_back(std::move(handler)); }
  void publish(const UpdateBatchPtr& batch) override;
  void subscribeSessionEnds(SessionEndHandler handler) override {
    session_handlers_.push_back(std::move(handler));
  }
  void publishSessionEnd(const std::string& session_key) override;
  std::string name() const override { return "in-process"; }

 private:
  std::vector<BatchHandler> handlers_;
  std::vector<SessionEndHandler> session_handlers_;
};

/// Calls every handler, logging (not propagating) what one throws.
void deliverToAll(const std::vector<BatchHandler>& handlers, const UpdateBatchPtr& batch);
/// The same for a session end.
void deliverToAll(const std::vector<SessionEndHandler>& handlers, const std::string& session_key);

}  // namespace skinpulse::events
