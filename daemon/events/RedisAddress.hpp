#pragma once

// RedisAddress: where and as whom to connect for a `redis://[user[:password]@]host[:port][/db]`
// URL. Pub/sub ignores the database number (Redis channels are global to the server).

#include <string>

namespace skinpulse::events {

struct RedisAddress {
  std::string host;
  int port = 6379;
  std::string user;      ///< empty: AUTH with the password alone (Redis < 6 style)
  std::string password;  ///< empty: no AUTH; never logged
};

/// Throws std::invalid_argument naming the problem (never the password) when `url` is
/// not of that form.
RedisAddress parseRedisAddress(const std::string& url);

}  // namespace skinpulse::events
