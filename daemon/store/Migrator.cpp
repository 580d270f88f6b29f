#include "store/Migrator.hpp"

#include "common/Log.hpp"
#include "common/Time.hpp"
#include "store/Errors.hpp"
#include "store/SqlScript.hpp"
#include "store/WriteTransaction.hpp"

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <regex>
#include <sstream>
#include <stdexcept>
#include <string_view>

using Poco::Data::Keywords::bind;
using Poco::Data::Keywords::into;
using Poco::Data::Keywords::now;

namespace skinpulse::store {
namespace {

// Arbitrary, fixed: every skinpulsed of a deployment must use the same key.
constexpr std::int64_t kMigrationLockKey = 0x736b696e70756c73;  // "skinpuls"

std::string readFile(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read migration " + path.string());
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

void ensureMigrationTable(ConnectionPool& pool) {
  WriteTransaction tx(pool);
  tx.lockAdvisory(kMigrationLockKey);
  tx.session() << "CREATE TABLE IF NOT EXISTS schema_migrations ("
                  "version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)",
      now;
  tx.commit();
}

// A file that rebuilds a referenced table (SQLite cannot alter a constraint in place) says
// so with this comment line; it is applied with the foreign keys checked at its COMMIT.
constexpr std::string_view kForeignKeysOff = "-- migrate: foreign_keys off";

WriteTransaction::ForeignKeys foreignKeysFor(const std::string& text) {
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line == kForeignKeysOff) return WriteTransaction::ForeignKeys::kCheckedAtCommit;
    if (line.rfind("--", 0) != 0) break;  // only the header comment is read
  }
  return WriteTransaction::ForeignKeys::kEnforced;
}

// Returns false when another process applied it first.
bool applyOne(ConnectionPool& pool, const MigrationFile& migration) {
  const std::string text = readFile(migration.path);
  const auto statements = splitSqlStatements(text);
  WriteTransaction tx(pool, foreignKeysFor(text));
  tx.lockAdvisory(kMigrationLockKey);
  std::int64_t recorded = 0;
  tx.session() << tx.sql("SELECT COUNT(*) FROM schema_migrations WHERE version = ?"),
      into(recorded), bind(migration.version), now;
  if (recorded != 0) return false;
  for (std::size_t i = 0; i < statements.size(); ++i) {
    try {
      tx.session() << statements[i], now;
    } catch (const std::exception& e) {
      throw std::runtime_error("migration " + migration.path.filename().string() + ", statement " +
                               std::to_string(i + 1) + ": " + describe(e));
    }
  }
  tx.session() << tx.sql(
      "INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)"),
      bind(migration.version), bind(migration.name), bind(time::nowSeconds()), now;
  tx.commit();
  return true;
}

}  // namespace

std::vector<MigrationFile> listMigrations(const std::filesystem::path& dir) {
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec)) {
    throw std::runtime_error("migrations directory " + dir.string() + " does not exist");
  }
  static const std::regex kName(R"(([0-9]+)_([A-Za-z0-9_]+)\.sql)");
  std::vector<MigrationFile> files;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    const std::string filename = entry.path().filename().string();
    std::smatch match;
    if (!entry.is_regular_file() || !std::regex_match(filename, match, kName)) continue;
    files.push_back({std::stoi(match[1].str()), entry.path().stem().string(), entry.path()});
  }
  if (files.empty()) throw std::runtime_error("no migrations (NNN_name.sql) in " + dir.string());
  std::sort(files.begin(), files.end(),
            [](const auto& a, const auto& b) { return a.version < b.version; });
  for (std::size_t i = 1; i < files.size(); ++i) {
    if (files[i].version == files[i - 1].version) {
      throw std::runtime_error("migrations " + files[i - 1].path.filename().string() + " and " +
                               files[i].path.filename().string() + " share a version");
    }
  }
  return files;
}

void applyMigrations(ConnectionPool& pool, const std::filesystem::path& dir) {
  const auto files = listMigrations(dir);
  ensureMigrationTable(pool);
  for (const auto& migration : files) {
    if (applyOne(pool, migration))
      log::main().info("applied database migration {}", migration.name);
  }
  const int version = schemaVersion(pool);
  if (version > files.back().version) {
    log::main().warn("database schema version {} is newer than this build's {}", version,
                     files.back().version);
  }
}

int schemaVersion(ConnectionPool& pool) {
  auto lease = pool.read();
  std::int64_t version = 0;
  lease.session() << "SELECT COALESCE(MAX(version), 0) FROM schema_migrations", into(version), now;
  return static_cast<int>(version);
}

}  // namespace skinpulse::store
