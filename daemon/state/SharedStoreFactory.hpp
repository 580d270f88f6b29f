#pragma once

// Chooses the shared-state store from configuration: Redis when REDIS_URL
// ([storage] redis_url) is set, otherwise the embedded store in the database.

#include "state/SharedStore.hpp"

#include <memory>
#include <string>

namespace skinpulse::store {
class Database;
}  // namespace skinpulse::store

namespace skinpulse::state {

/// `redis_url` empty: a DatabaseSharedStore on `database` (which must outlive it);
/// otherwise a RedisSharedStore. Throws std::invalid_argument for a malformed URL. An
/// unreachable Redis is not an error here: the daemon starts and fails closed per request.
std::unique_ptr<SharedStore> openSharedStore(const std::string& redis_url,
                                             store::Database& database);

}  // namespace skinpulse::state
