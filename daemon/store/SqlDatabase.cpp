#include "store/SqlDatabase.hpp"

#include "common/Log.hpp"
#include "store/Errors.hpp"
#include "store/Migrator.hpp"

#include <cstdint>

using Poco::Data::Keywords::into;
using Poco::Data::Keywords::now;

namespace skinpulse::store {

SqlDatabase::SqlDatabase(std::unique_ptr<ConnectionPool> pool, std::unique_ptr<IngestLease> lease)
    : pool_(std::move(pool)),
      catalog_(*pool_),
      prices_(*pool_),
      users_(*pool_),
      holdings_(*pool_),
      alerts_(*pool_),
      snapshots_(*pool_),
      rates_(*pool_),
      api_keys_(*pool_),
      lease_(std::move(lease)) {}

std::string SqlDatabase::backend() const {
  return pool_->backend() == Backend::kSqlite ? "sqlite" : "postgresql";
}

int SqlDatabase::schemaVersion() { return store::schemaVersion(*pool_); }

bool SqlDatabase::ping() {
  try {
    auto lease = pool_->read();
    std::int64_t one = 0;
    lease.session() << "SELECT 1", into(one), now;
    return one == 1;
  } catch (const std::exception& e) {
    log::main().warn("database ping failed: {}", describe(e));
    return false;
  }
}

}  // namespace skinpulse::store
