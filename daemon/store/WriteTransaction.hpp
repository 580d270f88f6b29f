#pragma once

#include "store/ConnectionPool.hpp"

#include <Poco/Data/Session.h>

#include <cstdint>
#include <string>

namespace skinpulse::store {

/// One write transaction on a write lease: rolled back unless commit() is reached, so an
/// exception anywhere leaves the database as it was.
///
/// Transaction control is plain SQL rather than Session::begin(): SQLite must start with
/// BEGIN IMMEDIATE, which takes the write lock up front. A deferred BEGIN that reads
/// first and writes later fails with SQLITE_BUSY, without waiting, when another process
/// (skinpulsectl backfill) wrote in between.
class WriteTransaction {
 public:
  /// kCheckedAtCommit (SQLite only; PostgreSQL ignores it): foreign keys are off for the
  /// transaction and PRAGMA foreign_key_check runs before COMMIT instead, which refuses the
  /// commit on any dangling reference. A table rebuild (drop, then rename a copy) needs it:
  /// with foreign keys on, dropping a referenced table fails at COMMIT even when the copy
  /// carries every id. The pragma has no effect inside a transaction, so it is set on the
  /// connection before BEGIN and set back after the end.
  enum class ForeignKeys { kEnforced, kCheckedAtCommit };

  explicit WriteTransaction(ConnectionPool& pool,
                            ForeignKeys foreign_keys = ForeignKeys::kEnforced);
  WriteTransaction(const WriteTransaction&) = delete;
  WriteTransaction& operator=(const WriteTransaction&) = delete;
  ~WriteTransaction();

  Poco::Data::Session& session() { return lease_.session(); }
  Backend backend() const { return backend_; }
  /// `text` in this backend's placeholder syntax.
  std::string sql(const std::string& text) const;

  /// PostgreSQL: blocks other writers of `table` until the end of the transaction; reads
  /// and foreign-key checks against it go on. SQLite: nothing to do, BEGIN IMMEDIATE
  /// already excludes every writer.
  void lockTable(const std::string& table);
  /// PostgreSQL: a transaction-scoped advisory lock, for work that spans tables
  /// (migrations). SQLite: nothing to do.
  void lockAdvisory(std::int64_t key);

  void commit();

 private:
  ConnectionPool& pool_;
  ConnectionPool::Lease lease_;
  const Backend backend_;
  bool open_ = false;
  bool foreign_keys_off_ = false;

  void restoreForeignKeys();
};

}  // namespace skinpulse::store
