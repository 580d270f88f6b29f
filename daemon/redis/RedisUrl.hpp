#pragma once

// RedisUrl: `redis://[[user]:password@]host[:port][/db]` taken apart, for every Redis
// client of the daemon (the shared store and the event bus). User and password are
// percent-decoded, so a password may hold any byte ("p%40ss" is "p@ss").

#include <string>

namespace skinpulse::redis {

struct RedisUrl {
  std::string host;
  int port = 6379;
  int database = 0;
  std::string user;      ///< empty: AUTH with the password alone (Redis < 6 style)
  std::string password;  ///< empty: no AUTH; never logged
};

/// Throws std::invalid_argument naming the problem (never the password).
RedisUrl parseRedisUrl(const std::string& url);

}  // namespace skinpulse::redis
