#include "store/WriteTransaction.hpp"

#include "common/Log.hpp"
#include "store/Errors.hpp"

#include <cstdint>

using Poco::Data::Keywords::into;
using Poco::Data::Keywords::now;

namespace skinpulse::store {

WriteTransaction::WriteTransaction(ConnectionPool& pool)
    : pool_(pool), lease_(pool.write()), backend_(pool.backend()) {
  session() << (backend_ == Backend::kSqlite ? "BEGIN IMMEDIATE" : "BEGIN"), now;
  open_ = true;
}

WriteTransaction::~WriteTransaction() {
  if (!open_) return;
  try {
    session() << "ROLLBACK", now;
  } catch (const std::exception& e) {
    log::main().warn("database rollback failed, dropping the connection: {}", describe(e));
    lease_.discard();
  }
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
  session() << "COMMIT", now;
  open_ = false;
}

}  // namespace skinpulse::store
