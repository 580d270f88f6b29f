#include "store/postgres/PostgresPool.hpp"

#include <Poco/Data/PostgreSQL/Connector.h>

#include <libpq-fe.h>
#include <mutex>
#include <stdexcept>

using Poco::Data::Keywords::now;

namespace skinpulse::store::postgres {
namespace {

// Each connection is a server process; HTTP readers beyond this wait for a free one.
constexpr std::size_t kMaxConnections = 8;

void registerConnector() {
  static std::once_flag once;
  std::call_once(once, [] { Poco::Data::PostgreSQL::Connector::registerConnector(); });
}

// Poco 1.11 never frees the libpq connection of a failed attempt (~35 KB each), which
// would add up while the server is down and requests keep asking for a connection.
// PQping answers "is anybody there" without leaking; only a server that accepts
// connections gets a real (Poco) attempt.
void requireServer(const std::string& conninfo) {
  switch (PQping(conninfo.c_str())) {
    case PQPING_OK:
      return;
    case PQPING_REJECT:
      throw std::runtime_error(
          "the PostgreSQL server is not accepting connections (starting, "
          "stopping or recovering)");
    case PQPING_NO_RESPONSE:
      throw std::runtime_error(
          "no PostgreSQL server answers at that address (refused or "
          "timed out)");
    default:
      throw std::runtime_error("the PostgreSQL connection parameters are not valid");
  }
}

Poco::Data::Session openConnection(const std::string& conninfo) {
  requireServer(conninfo);
  Poco::Data::Session session("PostgreSQL", conninfo);
  // libpq prints NOTICEs ("relation already exists, skipping") straight to stderr,
  // around our log format. Poco's connection string cannot carry `options` (it splits on
  // spaces), so this is set per session instead.
  session << "SET client_min_messages TO warning", now;
  return session;
}

}  // namespace

std::unique_ptr<ConnectionPool> openPool(const DatabaseUrl& url) {
  registerConnector();
  const std::string conninfo = url.connection_string;
  auto pool = std::make_unique<ConnectionPool>(
      Backend::kPostgres, [conninfo] { return openConnection(conninfo); }, kMaxConnections, false);
  pool->read();  // connect now: a bad address or password is an error at start, not later
  return pool;
}

}  // namespace skinpulse::store::postgres
