#pragma once

// A Redis endpoint that refuses connections, for the outage tests of Redis-backed code.

#include "state/RedisSharedStore.hpp"

#include <Poco/Net/ServerSocket.h>
#include <Poco/Net/SocketAddress.h>

#include <cstdint>

namespace skinpulse::test {

/// A loopback address nobody listens on: a port bound, then closed again.
inline redis::RedisUrl unreachableRedisUrl() {
  std::uint16_t port = 0;
  {
    Poco::Net::ServerSocket probe(Poco::Net::SocketAddress("127.0.0.1", 0));
    port = probe.address().port();
  }
  redis::RedisUrl url;
  url.host = "127.0.0.1";
  url.port = port;
  return url;
}

}  // namespace skinpulse::test
