#include "store/Database.hpp"

#include "common/Log.hpp"
#include "common/Time.hpp"
#include "store/DatabaseUrl.hpp"
#include "store/Errors.hpp"
#include "store/Migrator.hpp"
#include "store/SqlDatabase.hpp"
#include "store/sqlite/SqlitePool.hpp"

#include <filesystem>
#include <limits>
#include <stdexcept>
#ifdef SKINPULSE_WITH_POSTGRES
#include "store/postgres/PostgresLease.hpp"
#include "store/postgres/PostgresPool.hpp"
#endif

namespace skinpulse::store {
namespace {

// The message of a failed open, as one line (libpq's span several, and the daemon reports
// a failed start in one) and without the password, whatever the driver chose to quote.
std::string scrubbed(const std::string& message, const std::string& secret) {
  std::string line;
  for (char c : message) {
    const bool space = c == '\n' || c == '\r' || c == '\t' || c == ' ';
    if (!space) {
      line += c;
    } else if (!line.empty() && line.back() != ' ') {
      line += ' ';
    }
  }
  while (!line.empty() && line.back() == ' ') line.pop_back();
  if (secret.empty()) return line;
  for (auto at = line.find(secret); at != std::string::npos; at = line.find(secret, at)) {
    line.replace(at, secret.size(), "***");
  }
  return line;
}

std::unique_ptr<store::ConnectionPool> openPool(const DatabaseUrl& url) {
  if (url.backend == Backend::kSqlite) return store::sqlite::openPool(url);
#ifdef SKINPULSE_WITH_POSTGRES
  return store::postgres::openPool(url);
#else
  throw std::runtime_error(
      "DATABASE_URL: this build has no PostgreSQL support "
      "(SKINPULSE_WITH_POSTGRES=OFF)");
#endif
}

std::unique_ptr<IngestLease> openLease(const DatabaseUrl& url) {
#ifdef SKINPULSE_WITH_POSTGRES
  if (url.backend == Backend::kPostgres) {
    return std::make_unique<store::postgres::PostgresLease>(url.connection_string);
  }
#endif
  (void)url;
  return std::make_unique<SoleInstanceLease>();
}

}  // namespace

std::unique_ptr<Database> openDatabase(const std::string& url_text,
                                       const std::string& migrations_dir) {
  const DatabaseUrl url = parseDatabaseUrl(url_text);
  const char* flavour = url.backend == Backend::kSqlite ? "sqlite" : "postgresql";
  try {
    auto pool = openPool(url);
    store::applyMigrations(*pool, std::filesystem::path(migrations_dir) / flavour);
    auto database = std::make_unique<store::SqlDatabase>(std::move(pool), openLease(url));
    // PostgreSQL: today's day partition and the next ones exist before the first cycle
    // (nothing is dropped here: retention does that, with its own cut-off).
    // A failure here is not fatal: the rows of a missing day wait in the DEFAULT partition
    // and the next retention pass creates it and moves them.
    try {
      database->prices().maintainPartitions(time::nowSeconds(),
                                            std::numeric_limits<std::int64_t>::min(), 0);
    } catch (const std::exception& e) {
      log::main().warn("database: day partitions not created at open (retried by retention): {}",
                       store::describe(e));
    }
    log::main().info("database {} open, schema version {}", url.redacted,
                     database->schemaVersion());
    return database;
  } catch (const std::exception& e) {
    throw std::runtime_error("database " + url.redacted + ": " +
                             scrubbed(store::describe(e), url.password));
  }
}

}  // namespace skinpulse::store
