#include "events/EventBus.hpp"
#include "events/InProcessEventBus.hpp"
#include "events/RedisEventBus.hpp"

namespace skinpulse::events {

std::unique_ptr<EventBus> makeEventBus(const std::string& redis_url) {
  if (redis_url.empty()) return std::make_unique<InProcessEventBus>();
  return std::make_unique<RedisEventBus>(redis::parseRedisUrl(redis_url));
}

}  // namespace skinpulse::events
