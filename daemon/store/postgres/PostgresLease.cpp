#include "store/postgres/PostgresLease.hpp"

#include "common/Log.hpp"

#include <libpq-fe.h>
#include <memory>

namespace skinpulse::store::postgres {
namespace {

// Every skinpulse instance on the same database and schema competes for one key:
// (ASCII "skin", hash of the schema). Deployments in different schemas of one database
// (and the tests, which run in schemas of their own) do not contend.
constexpr const char* kTryLock =
    "SELECT pg_try_advisory_lock(1936419182, hashtext(current_schema()))";

using Result = std::unique_ptr<PGresult, decltype(&PQclear)>;

// "t" when the single boolean of `sql` is true; false on any error.
bool queryTrue(PGconn* connection, const char* sql) {
  const Result result(PQexec(connection, sql), &PQclear);
  return result && PQresultStatus(result.get()) == PGRES_TUPLES_OK &&
         PQntuples(result.get()) == 1 && PQgetvalue(result.get(), 0, 0)[0] == 't';
}

}  // namespace

// The scheduler asks on its own thread before every cycle: a database that stops
// answering (a dropped network, not a refused connection) must cost it seconds, not the
// kernel's TCP retransmission timeout. Settings given in the URL come later and win.
PostgresLease::PostgresLease(std::string conninfo)
    : conninfo_("connect_timeout=10 tcp_user_timeout=10000 " + conninfo) {}

PostgresLease::~PostgresLease() { disconnect(); }

void PostgresLease::disconnect() {
  if (connection_ != nullptr) PQfinish(connection_);
  connection_ = nullptr;
  held_ = false;
}

bool PostgresLease::connectAndTry() {
  if (connection_ == nullptr || PQstatus(connection_) != CONNECTION_OK) {
    disconnect();
    if (PQping(conninfo_.c_str()) != PQPING_OK) return false;  // see PostgresPool.cpp
    connection_ = PQconnectdb(conninfo_.c_str());
    if (PQstatus(connection_) != CONNECTION_OK) {
      disconnect();
      return false;
    }
  }
  held_ = queryTrue(connection_, kTryLock);
  if (held_) log::main().info("ingest lease acquired: this instance polls the sources");
  return held_;
}

bool PostgresLease::holds() {
  std::lock_guard lock(mutex_);
  if (!held_) return connectAndTry();
  // Still ours as long as the connection that holds it is alive.
  if (queryTrue(connection_, "SELECT TRUE")) return true;
  log::main().warn("ingest lease lost with its database connection; standing by");
  disconnect();
  return connectAndTry();
}

}  // namespace skinpulse::store::postgres
