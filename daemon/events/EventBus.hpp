#pragma once

// EventBus: how a cycle's updates travel from the publisher (after ingestion) to the
// WebSocket hub. In-process for one daemon; over Redis pub/sub when several daemons
// share a Redis, so every instance forwards every instance's updates (docs/api.md §7,
// §8). Handlers run on the publishing thread (or the bus's receiver thread) and must be
// quick: the hub only hands the batch to its reactors.

#include "events/UpdateBatch.hpp"

#include <functional>
#include <memory>
#include <string>

namespace skinpulse::events {

using BatchHandler = std::function<void(const UpdateBatchPtr&)>;
/// Told the shared-store key of a session that ended (logout, a login's rotation, an
/// account gone): the hub closes that session's signed-in sockets (docs/api.md §7).
using SessionEndHandler = std::function<void(const std::string& session_key)>;

class EventBus {
 public:
  virtual ~EventBus() = default;

  /// Adds a receiver of every batch published on this bus (by any instance). Call
  /// before start().
  virtual void subscribe(BatchHandler handler) = 0;
  /// Delivers `batch` to the local receivers now and to other instances, if any. Never
  /// blocks on the network and never throws.
  virtual void publish(const UpdateBatchPtr& batch) = 0;

  /// Adds a receiver of every session end announced on this bus (by any instance). Call
  /// before start().
  virtual void subscribeSessionEnds(SessionEndHandler handler) = 0;
  /// Tells the local receivers now and the other instances, if any, that the session
  /// stored under `session_key` ended. Never blocks on the network and never throws.
  virtual void publishSessionEnd(const std::string& session_key) = 0;

  virtual void start() {}
  virtual void stop() {}
  /// "in-process" or "redis".
  virtual std::string name() const = 0;
};

/// The bus for a `[storage] redis_url`: Redis pub/sub when set, in-process when empty.
std::unique_ptr<EventBus> makeEventBus(const std::string& redis_url);

}  // namespace skinpulse::events
