#pragma once

// RedisAddress: host and port of a `redis://host:port/db` URL. Pub/sub ignores the
// database number (Redis channels are global to the server).

#include <string>

namespace skinpulse::events {

struct RedisAddress {
  std::string host;
  int port = 6379;
};

/// Throws std::invalid_argument naming the problem when `url` is not redis://host[:port][/db].
RedisAddress parseRedisAddress(const std::string& url);

}  // namespace skinpulse::events
