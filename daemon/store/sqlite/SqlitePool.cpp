#include "store/sqlite/SqlitePool.hpp"

#include "common/Log.hpp"

#include <Poco/Data/SQLite/Connector.h>

#include <filesystem>
#include <mutex>
#include <stdexcept>
#include <string>

using Poco::Data::Keywords::into;
using Poco::Data::Keywords::now;

namespace skinpulse::store::sqlite {
namespace {

// Readers beyond this wait for a free connection; WAL lets all of them read at once.
constexpr std::size_t kMaxConnections = 8;
// How long a writer from another process (skinpulsectl) may hold the lock before our
// statement fails instead of waiting.
constexpr int kBusyTimeoutMs = 10000;

void registerConnector() {
  static std::once_flag once;
  std::call_once(once, [] { Poco::Data::SQLite::Connector::registerConnector(); });
}

Poco::Data::Session openConnection(const std::string& path) {
  Poco::Data::Session session("SQLite", path);
  // Per-connection settings: none of them persists in the file.
  session << "PRAGMA busy_timeout = " + std::to_string(kBusyTimeoutMs), now;
  session << "PRAGMA foreign_keys = ON", now;
  session << "PRAGMA synchronous = NORMAL", now;
  return session;
}

void createParentDirectory(const std::string& path) {
  const auto parent = std::filesystem::path(path).parent_path();
  if (parent.empty()) return;
  std::error_code ec;
  std::filesystem::create_directories(parent, ec);
  if (ec) {
    throw std::runtime_error("cannot create directory " + parent.string() +
                             " for the database: " + ec.message());
  }
}

}  // namespace

std::unique_ptr<ConnectionPool> openPool(const DatabaseUrl& url) {
  registerConnector();
  const std::string path = url.connection_string;
  if (url.in_memory) {
    // One connection, shared by everyone through the pool; writes need no extra lock.
    auto shared = std::make_shared<Poco::Data::Session>(openConnection(path));
    bool handed_out = false;
    return std::make_unique<ConnectionPool>(
        Backend::kSqlite,
        [shared, handed_out]() mutable {
          if (handed_out) throw std::runtime_error("the in-memory database connection was lost");
          handed_out = true;
          return *shared;
        },
        1, false);
  }
  createParentDirectory(path);
  {
    // The journal mode is a property of the file: setting it once is enough, and it
    // must happen before the pool's connections start reading.
    auto session = openConnection(path);
    std::string mode;
    session << "PRAGMA journal_mode = WAL", into(mode), now;
    if (mode != "wal")
      log::main().warn("SQLite database {} is in journal mode {}, not wal", path, mode);
  }
  return std::make_unique<ConnectionPool>(
      Backend::kSqlite, [path] { return openConnection(path); }, kMaxConnections, true);
}

}  // namespace skinpulse::store::sqlite
