#pragma once

// Shared pieces of the auth unit tests: a real embedded shared store on an in-memory
// SQLite database, one that is down, and request builders.

#include "http/Request.hpp"
#include "state/DatabaseSharedStore.hpp"
#include "store/Database.hpp"
#include "store/SqlDatabase.hpp"

#include <Poco/Exception.h>

#include <memory>
#include <string>

namespace skinpulse::test {

struct MemoryState {
  MemoryState()
      : database(
            store::openDatabase("sqlite://:memory:", std::string(SKINPULSE_SHARE_DIR) + "/sql")),
        store(dynamic_cast<store::SqlDatabase&>(*database).pool()) {}

  std::unique_ptr<store::Database> database;
  state::DatabaseSharedStore store;
};

/// A shared store whose database cannot be reached: every call throws StoreUnavailable.
struct DownState {
  DownState()
      : pool(
            store::Backend::kSqlite,
            []() -> Poco::Data::Session { throw Poco::IOException("connection refused"); }, 1,
            true),
        store(pool) {}

  store::ConnectionPool pool;
  state::DatabaseSharedStore store;
};

inline http::Request makeRequest(const std::string& method, const std::string& path,
                                 http::Headers headers = {},
                                 const std::string& peer = "192.0.2.10") {
  http::Request request;
  request.method = method;
  request.path = path;
  request.target = path;
  request.headers = std::move(headers);
  request.client_address = peer;
  return request;
}

}  // namespace skinpulse::test
