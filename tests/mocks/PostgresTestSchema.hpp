#pragma once

// PostgresTestSchema: a new, empty schema of a test's own in the database that
// SKINPULSE_TEST_POSTGRES_URL names, reached through a URL whose search_path is that
// schema. Other suites may use the same database at the same time (ctest -j), so every
// *PostgresTest works in a schema named <prefix>_<pid>_<n> and drops it afterwards.

#include "store/DatabaseUrl.hpp"

#include <Poco/Data/Session.h>
#ifdef SKINPULSE_WITH_POSTGRES
#include <Poco/Data/PostgreSQL/Connector.h>
#endif

#include <cstdlib>
#include <string>
#include <unistd.h>

namespace skinpulse::test {

class PostgresTestSchema {
 public:
  /// SKINPULSE_TEST_POSTGRES_URL; empty when it is unset or PostgreSQL support is not
  /// built, in which case the suite skips.
  static std::string serverUrl() {
#ifndef SKINPULSE_WITH_POSTGRES
    return "";
#else
    const char* url = std::getenv("SKINPULSE_TEST_POSTGRES_URL");
    return url == nullptr ? "" : url;
#endif
  }

  /// Creates a new schema (dropping a leftover of the same name first) on `server_url`
  /// and returns the URL that works in it.
  std::string create(const std::string& server_url, const std::string& prefix) {
    static int counter = 0;
    schema_ = prefix + "_" + std::to_string(::getpid()) + "_" + std::to_string(++counter);
    server_url_ = server_url;
    admin("DROP SCHEMA IF EXISTS " + schema_ + " CASCADE");
    admin("CREATE SCHEMA " + schema_);
    return url();
  }

  /// The URL that works in the schema; valid after create().
  std::string url() const {
    const std::string separator = server_url_.find('?') == std::string::npos ? "?" : "&";
    return server_url_ + separator + "options=-csearch_path%3D" + schema_;
  }

  bool created() const { return !schema_.empty(); }

  /// Drops the schema and everything in it; nothing when none was created.
  void drop() {
    if (schema_.empty()) return;
    admin("DROP SCHEMA IF EXISTS " + schema_ + " CASCADE");
    schema_.clear();
  }

 private:
  void admin(const std::string& sql) const {
#ifdef SKINPULSE_WITH_POSTGRES
    Poco::Data::PostgreSQL::Connector::registerConnector();
#endif
    Poco::Data::Session session("PostgreSQL",
                                store::parseDatabaseUrl(server_url_).connection_string);
    session << "SET client_min_messages TO warning", Poco::Data::Keywords::now;
    session << sql, Poco::Data::Keywords::now;
  }

  std::string server_url_;
  std::string schema_;
};

}  // namespace skinpulse::test
