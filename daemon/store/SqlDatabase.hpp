#pragma once

#include "store/ConnectionPool.hpp"
#include "store/Database.hpp"
#include "store/SqlAlertStore.hpp"
#include "store/SqlApiKeyStore.hpp"
#include "store/SqlCatalogStore.hpp"
#include "store/SqlHoldingStore.hpp"
#include "store/SqlPriceStore.hpp"
#include "store/SqlRateStore.hpp"
#include "store/SqlSnapshotStore.hpp"
#include "store/SqlUserStore.hpp"

#include <memory>

namespace skinpulse::store {

/// A Database over a connection pool; the stores share the pool.
class SqlDatabase final : public Database {
 public:
  SqlDatabase(std::unique_ptr<ConnectionPool> pool, std::unique_ptr<IngestLease> lease);

  std::string backend() const override;
  int schemaVersion() override;
  bool ping() override;

  CatalogStore& catalog() override { return catalog_; }
  PriceStore& prices() override { return prices_; }
  UserStore& users() override { return users_; }
  HoldingStore& holdings() override { return holdings_; }
  AlertStore& alerts() override { return alerts_; }
  SnapshotStore& snapshots() override { return snapshots_; }
  RateStore& rates() override { return rates_; }
  IngestLease& ingestLease() override { return *lease_; }
  ApiKeyStore& apiKeys() override { return api_keys_; }

  /// For code that needs SQL of its own on the same database (the embedded shared-state
  /// store, tests).
  ConnectionPool& pool() { return *pool_; }

 private:
  std::unique_ptr<ConnectionPool> pool_;
  SqlCatalogStore catalog_;
  SqlPriceStore prices_;
  SqlUserStore users_;
  SqlHoldingStore holdings_;
  SqlAlertStore alerts_;
  SqlSnapshotStore snapshots_;
  SqlRateStore rates_;
  SqlApiKeyStore api_keys_;
  std::unique_ptr<IngestLease> lease_;
};

}  // namespace skinpulse::store
