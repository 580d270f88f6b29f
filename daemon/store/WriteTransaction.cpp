#include "store/WriteTransaction.hpp"

#include "common/Log.hpp"
#include "store/Errors.hpp"

#include <cstdint>
#include <stdexcept>
#include <string>

using Poco::Data::Keywords::into;
using Poco::Data::Keywords::now;

namespace skinpulse::store {

WriteTransaction::WriteTransaction(ConnectionPool& pool, ForeignKeys foreign_keys)
    : pool_(pool), lease_(pool.write()), backend_(pool.backend()) {
  if (backend_ == Backend::kSqlite && foreign_keys == ForeignKeys::kCheckedAtCommit) {
    session() << "PRAGMA foreign_keys = OFF", now;
    foreign_keys_off_ = true;
  }
  try {
    session() << (backend_ == Backend::kSqlite ? "BEGIN IMMEDIATE" : "BEGIN"), now;
  } catch (...) {
    restoreForeignKeys();
    throw;
  }
  open_ = true;
}

void WriteTransaction::restoreForeignKeys() {
  if (!foreign_keys_off_) return;
  foreign_keys_off_ = false;
  try {
    session() << "PRAGMA foreign_keys = ON", now;
  } catch (const std::exception& e) {
    // A connection without its foreign keys must not serve anyone else.
    log::main().warn("database: foreign keys not re-enabled, dropping the connection: {}",
                     describe(e));
    lease_.discard();
  }
}

WriteTransaction::~WriteTransaction() {
  if (!open_) return;
  try {
    session() << "ROLLBACK", now;
  } catch (const std::exception& e) {
    log::main().warn("database rollback failed, dropping the connection: {}", describe(e));
    lease_.discard();
    return;
  }
  restoreForeignKeys();
}

std::string WriteTransaction::sql(const std::string& text) const { return pool_.sql(text); }

void WriteTransaction::lockTable(const std::string& table) {
  if (backend_ != Backend::kPostgres) return;
  session() << "LOCK TABLE " + table + " IN SHARE ROW EXCLUSIVE MODE", now;
}

void WriteTransaction::lockAdvisory(std::int64_t key) {
  if (backend_ != Backend::kPostgres) return;
  // pg_advisory_xact_lock returns void, which Poco cannot extract: count the row instead.
  std::int64_t rows = 0;
  session() << "SELECT COUNT(*) FROM (SELECT pg_advisory_xact_lock(" + std::to_string(key) +
                   ")) AS l",
      into(rows), now;
}

void WriteTransaction::commit() {
  if (foreign_keys_off_) {
    // Any row here is a reference the transaction left dangling: refuse the commit (the
    // destructor rolls back).
    std::int64_t dangling = 0;
    session() << "SELECT COUNT(*) FROM pragma_foreign_key_check", into(dangling), now;
    if (dangling != 0) {
      throw std::runtime_error("foreign key check failed: " + std::to_string(dangling) +
                               " dangling reference(s)");
    }
  }
  session() << "COMMIT", now;
  open_ = false;
  restoreForeignKeys();
}

}  // namespace skinpulse::store
