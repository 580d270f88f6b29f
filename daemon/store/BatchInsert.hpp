#pragma once

#include "store/Sql.hpp"

#include <Poco/Data/Session.h>
#include <Poco/Data/Statement.h>

#include <algorithm>
#include <cstddef>
#include <string>
#include <vector>

namespace skinpulse::store {

/// Bind parameters per PostgreSQL statement. Not the protocol's 65,535: when libpq
/// prepares a statement the server answers with a ParameterDescription message of
/// 6 + 4 × N bytes, and libpq (15.18 and every current minor, since the 2025 hardening
/// of its message-length checks) drops the connection with "lost synchronization with
/// server: got message type "t"" when that message exceeds 30,000 bytes, i.e. above
/// ~7,500 parameters. 2,000 parameters (an 8 KB message) keeps us far from that on every
/// libpq, and a 8-column row still goes 250 rows to a round trip, where throughput has
/// long stopped depending on the batch size.
inline constexpr std::size_t kPostgresMaxParameters = 2000;

/// Rows per PostgreSQL statement of `arity` columns, within kPostgresMaxParameters.
constexpr std::size_t postgresRowsPerStatement(std::size_t arity) {
  return arity == 0 ? 1 : std::max<std::size_t>(1, kPostgresMaxParameters / arity);
}

/// Runs `head VALUES (...) tail` for every row of parallel column vectors (all the same
/// length), inside the caller's transaction, and returns the row count the database
/// reports as changed (inserted, or updated by an upsert; rows skipped by ON CONFLICT DO
/// NOTHING are not counted).
///
/// SQLite: one statement prepared once, the vectors bound whole; Poco steps it once per
/// row, which is SQLite's fastest path. PostgreSQL: multi-row VALUES lists within
/// kPostgresMaxParameters, one round trip each (Poco's PostgreSQL binder has no vector
/// binding).
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

  const std::size_t per_statement = postgresRowsPerStatement(arity);
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
