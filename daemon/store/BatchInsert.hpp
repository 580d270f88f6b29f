#pragma once

#include "store/Sql.hpp"

#include <Poco/Data/Session.h>
#include <Poco/Data/Statement.h>

#include <algorithm>
#include <cstddef>
#include <string>
#include <vector>

namespace skinpulse::store {

/// Rows per PostgreSQL statement: large enough that round trips stop mattering (~160k
/// rows/s measured at 1,000), small enough to stay far from the 65,535-parameter limit.
inline constexpr std::size_t kPostgresRowsPerStatement = 1000;

/// Runs `head VALUES (...) tail` for every row of parallel column vectors (all the same
/// length), inside the caller's transaction, and returns the row count the database
/// reports as changed (inserted, or updated by an upsert; rows skipped by ON CONFLICT DO
/// NOTHING are not counted).
///
/// SQLite: one statement prepared once, the vectors bound whole; Poco steps it once per
/// row, which is SQLite's fastest path. PostgreSQL: multi-row VALUES lists of up to
/// kPostgresRowsPerStatement rows, one round trip each (Poco's PostgreSQL binder has no
/// vector binding).
template <typename... Column>
std::size_t insertColumns(Poco::Data::Session& session, Backend backend, const std::string& head,
                          const std::string& tail, std::vector<Column>&... columns) {
  using Poco::Data::Keywords::bind;
  using Poco::Data::Keywords::use;
  constexpr std::size_t arity = sizeof...(Column);
  const std::size_t rows = std::min({columns.size()...});
  if (rows == 0) return 0;

  if (backend == Backend::kSqlite) {
    Poco::Data::Statement statement(session);
    statement << head + " VALUES " + placeholderRow(arity) + " " + tail;
    (statement.addBind(use(columns)), ...);
    return statement.execute();
  }

  const std::size_t per_statement = std::min(kPostgresRowsPerStatement, 65535 / arity);
  std::size_t changed = 0;
  for (std::size_t begin = 0; begin < rows; begin += per_statement) {
    const std::size_t end = std::min(rows, begin + per_statement);
    Poco::Data::Statement statement(session);
    statement << adaptPlaceholders(
        backend, head + " VALUES " + placeholderRows(arity, end - begin) + " " + tail);
    for (std::size_t i = begin; i < end; ++i) {
      // Column(...) copies the element; it also turns vector<bool>'s proxy into a bool.
      (statement.addBind(bind(Column(columns[i]))), ...);
    }
    changed += statement.execute();
  }
  return changed;
}

}  // namespace skinpulse::store
