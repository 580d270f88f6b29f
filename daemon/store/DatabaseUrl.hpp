#pragma once

#include <string>

namespace skinpulse::store {

enum class Backend { kSqlite, kPostgres };

/// DATABASE_URL taken apart (docs/api.md §1.2). Never log `connection_string`: for
/// PostgreSQL it carries the password; `redacted` is the form fit for messages.
struct DatabaseUrl {
  Backend backend = Backend::kSqlite;
  /// SQLite: the file path, or ":memory:". PostgreSQL: a libpq key=value string in the
  /// form Poco::Data::PostgreSQL accepts (pairs separated by single spaces).
  std::string connection_string;
  bool in_memory = false;
  /// The URL with the password replaced by "***".
  std::string redacted;
  /// PostgreSQL only: the decoded password, so error messages can be scrubbed of it.
  std::string password;
};

/// Parses `sqlite://PATH` (`sqlite:///abs/path.db`, `sqlite://./rel/path.db`,
/// `sqlite://:memory:`) and `postgresql://user:pass@host:port/db[?key=value&...]`
/// (`postgres://` too; user, password and database are percent-decoded; query pairs are
/// passed to libpq). Throws std::runtime_error naming the problem, never the password.
DatabaseUrl parseDatabaseUrl(const std::string& url);

}  // namespace skinpulse::store
