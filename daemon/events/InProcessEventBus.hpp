#pragma once

// InProcessEventBus: delivers each batch to the local receivers, synchronously.

#include "events/EventBus.hpp"

#include <vector>

namespace skinpulse::events {

class InProcessEventBus final : public EventBus {
 public:
  void subscribe(BatchHandler handler) override { handlers_.push_back(std::move(handler)); }
  void publish(const UpdateBatchPtr& batch) override;
  std::string name() const override { return "in-process"; }

 private:
  std::vector<BatchHandler> handlers_;
};

/// Calls every handler, logging (not propagating) what one throws.
void deliverToAll(const std::vector<BatchHandler>& handlers, const UpdateBatchPtr& batch);

}  // namespace skinpulse::events
