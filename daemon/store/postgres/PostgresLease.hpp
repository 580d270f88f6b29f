#pragma once

// The ingest lease on PostgreSQL: a session-level advisory lock on a connection of its
// own. The server releases the lock when that connection ends, so a daemon that dies,
// hangs up or loses the network gives the lease away without any timeout of ours; a
// standby instance gets it on its next try.

#include "store/IngestLease.hpp"

#include <mutex>
#include <string>

struct pg_conn;

namespace skinpulse::store::postgres {

class PostgresLease final : public IngestLease {
 public:
  explicit PostgresLease(std::string conninfo);
  ~PostgresLease() override;
  PostgresLease(const PostgresLease&) = delete;
  PostgresLease& operator=(const PostgresLease&) = delete;

  bool holds() override;

 private:
  bool connectAndTry();
  void disconnect();

  const std::string conninfo_;
  std::mutex mutex_;
  pg_conn* connection_ = nullptr;
  bool held_ = false;
};

}  // namespace skinpulse::store::postgres
