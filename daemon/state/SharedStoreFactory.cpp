#include "state/SharedStoreFactory.hpp"

#include "redis/RedisUrl.hpp"
#include "state/DatabaseSharedStore.hpp"
#include "state/RedisSharedStore.hpp"
#include "store/SqlDatabase.hpp"

#include <stdexcept>

namespace skinpulse::state {

std::unique_ptr<SharedStore> openSharedStore(const std::string& redis_url,
                                             store::Database& database) {
  if (!redis_url.empty())
    return std::make_unique<RedisSharedStore>(redis::parseRedisUrl(redis_url));
  auto* sql = dynamic_cast<store::SqlDatabase*>(&database);
  if (sql == nullptr) throw std::logic_error("the embedded shared store needs an SQL database");
  return std::make_unique<DatabaseSharedStore>(sql->pool());
}

}  // namespace skinpulse::state
