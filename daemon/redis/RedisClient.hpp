#pragma once

// Connecting to Redis, once for the whole daemon: connect with a timeout, a reply
// timeout, AUTH (user and password, or the password alone), CLIENT SETNAME and SELECT.
// Used by the shared store's connection pool (state/RedisSharedStore) and the event
// bus's publisher (events/RedisEventBus); the bus's subscriber speaks on its own socket
// and takes authCommand() from here.

#include "redis/RedisUrl.hpp"

#include <Poco/Redis/Array.h>
#include <Poco/Redis/Client.h>
#include <Poco/Redis/Type.h>

#include <memory>
#include <stdexcept>
#include <string>

namespace skinpulse::redis {

struct ConnectOptions {
  int connect_timeout_ms = 1000;
  int reply_timeout_ms = 2000;
  /// CLIENT SETNAME of the connection (shows in CLIENT LIST); empty: none. No spaces.
  std::string client_name;
  /// SELECT the URL's database (when not 0). Pub/sub channels are global to the server,
  /// so the event bus leaves it off.
  bool select_database = true;
};

/// An error reply of the server ("-ERR ...", "-WRONGPASS ..."): the connection itself
/// is fine.
class ErrorReply : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Sends `command` and returns the reply. Throws ErrorReply for an error reply, a
/// Poco::Exception when the connection fails or times out.
Poco::Redis::RedisType::Ptr run(Poco::Redis::Client& client, const Poco::Redis::Array& command);

/// A connected, authenticated client with its timeouts set. Throws as run() does.
std::unique_ptr<Poco::Redis::Client> connect(const RedisUrl& url, const ConnectOptions& options);

/// AUTH [user] password, for a connection driven by hand.
Poco::Redis::Array authCommand(const RedisUrl& url);

}  // namespace skinpulse::redis
