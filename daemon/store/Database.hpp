#pragma once

#include "store/AlertStore.hpp"
#include "store/ApiKeyStore.hpp"
#include "store/CatalogStore.hpp"
#include "store/HoldingStore.hpp"
#include "store/IngestLease.hpp"
#include "store/PriceStore.hpp"
#include "store/RateStore.hpp"
#include "store/SnapshotStore.hpp"
#include "store/UserStore.hpp"

#include <memory>
#include <string>

namespace skinpulse::store {

/// An open database: applies migrations when opened and hands out the stores. The
/// stores are owned by the Database and valid while it lives.
class Database {
 public:
  virtual ~Database() = default;

  /// "sqlite" or "postgresql".
  virtual std::string backend() const = 0;
  /// Highest migration version applied.
  virtual int schemaVersion() = 0;
  /// Cheap liveness check for /readyz; false instead of throwing.
  virtual bool ping() = 0;

  virtual CatalogStore& catalog() = 0;
  virtual PriceStore& prices() = 0;
  virtual UserStore& users() = 0;
  virtual HoldingStore& holdings() = 0;
  /// Alert rules and the delivery outbox (docs/api.md §13).
  virtual AlertStore& alerts() = 0;
  /// Portfolio value snapshots (docs/api.md §15).
  virtual SnapshotStore& snapshots() = 0;
  /// Exchange rates of the rates instances (docs/api.md §14).
  virtual RateStore& rates() = 0;
  /// Which instance ingests when several share this database (docs/api.md §8).
  virtual IngestLease& ingestLease() = 0;
  /// Users' API keys for the public read API (docs/api.md, "API keys and read budgets").
  virtual ApiKeyStore& apiKeys() = 0;
};

/// Opens `url` (`sqlite://PATH`, `sqlite://:memory:` or
/// `postgresql://user:pass@host:port/db`) and applies the migrations found in
/// `migrations_dir`/{sqlite,postgresql}/NNN_name.sql, each in its own transaction, in
/// version order, skipping those already recorded. Throws std::runtime_error with a
/// message that names the problem (never the password) when the URL is malformed, the
/// database cannot be reached or a migration fails.
std::unique_ptr<Database> openDatabase(const std::string& url, const std::string& migrations_dir);

}  // namespace skinpulse::store
