#include "store/postgres/PostgresCopy.hpp"

#include <Poco/Data/PostgreSQL/SessionImpl.h>

#include <libpq-fe.h>
#include <memory>
#include <stdexcept>
#include <string>

namespace skinpulse::store::postgres {
namespace {

using Result = std::unique_ptr<PGresult, decltype(&PQclear)>;

Result exec(PGconn* connection, const char* sql, ExecStatusType expected) {
  Result result(PQexec(connection, sql), &PQclear);
  if (!result || PQresultStatus(result.get()) != expected) {
    throw std::runtime_error(std::string("PostgreSQL: ") + PQerrorMessage(connection));
  }
  return result;
}

// COPY text format: backslash, tab, newline and carriage return are escaped.
void appendField(std::string& out, const std::string& text) {
  for (const char c : text) {
    switch (c) {
      case '\\':
        out += "\\\\";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      default:
        out.push_back(c);
    }
  }
}

}  // namespace

std::size_t copyInsertPoints(Poco::Data::Session& session, const std::vector<PricePoint>& points) {
  auto* impl = dynamic_cast<Poco::Data::PostgreSQL::SessionImpl*>(session.impl());
  if (impl == nullptr) throw std::logic_error("copyInsertPoints needs a PostgreSQL session");
  PGconn* connection = impl->handle();

  // Per connection, emptied at every commit; no key, so the batch's own duplicates pass
  // through COPY and are settled by ON CONFLICT below.
  exec(connection,
       "CREATE TEMP TABLE IF NOT EXISTS price_points_incoming "
       "(seq BIGINT, item_id BIGINT, source TEXT, time BIGINT, price BIGINT, volume BIGINT) "
       "ON COMMIT DELETE ROWS",
       PGRES_COMMAND_OK);
  exec(connection,
       "COPY price_points_incoming (seq, item_id, source, time, price, volume) FROM STDIN",
       PGRES_COPY_IN);
  std::string buffer;
  buffer.reserve(points.size() * 48);
  std::size_t seq = 0;
  for (const auto& p : points) {
    buffer += std::to_string(seq++);  // batch order: the first observation of a key wins
    buffer.push_back('\t');
    buffer += std::to_string(p.item_id);
    buffer.push_back('\t');
    appendField(buffer, p.source);
    buffer.push_back('\t');
    buffer += std::to_string(p.time);
    buffer.push_back('\t');
    buffer += std::to_string(p.price);
    buffer.push_back('\t');
    buffer += std::to_string(p.volume);
    buffer.push_back('\n');
  }
  const bool sent = PQputCopyData(connection, buffer.data(), static_cast<int>(buffer.size())) == 1;
  if (PQputCopyEnd(connection, sent ? nullptr : "client failed to send data") != 1) {
    throw std::runtime_error(std::string("PostgreSQL COPY: ") + PQerrorMessage(connection));
  }
  for (Result result(PQgetResult(connection), &PQclear); result;
       result.reset(PQgetResult(connection))) {
    if (PQresultStatus(result.get()) != PGRES_COMMAND_OK) {
      throw std::runtime_error(std::string("PostgreSQL COPY: ") + PQerrorMessage(connection));
    }
  }
  // The foreign key to items is gone on PostgreSQL (migration 002): one anti-join checks
  // the whole batch instead of a trigger per row.
  const Result unknown = exec(connection,
                              "SELECT i.item_id FROM price_points_incoming i WHERE NOT EXISTS "
                              "(SELECT 1 FROM items WHERE items.id = i.item_id) LIMIT 1",
                              PGRES_TUPLES_OK);
  if (PQntuples(unknown.get()) > 0) {
    throw std::runtime_error(std::string("price point for an item not in the catalogue (id ") +
                             PQgetvalue(unknown.get(), 0, 0) + ")");
  }
  const Result inserted =
      exec(connection,
           "INSERT INTO price_points (item_id, source, time, price, volume) "
           "SELECT item_id, source, time, price, volume FROM price_points_incoming "
           "ORDER BY item_id, source, time, seq ON CONFLICT DO NOTHING",
           PGRES_COMMAND_OK);
  const std::size_t count = std::stoull(PQcmdTuples(inserted.get()));
  exec(connection, "TRUNCATE price_points_incoming", PGRES_COMMAND_OK);
  return count;
}

}  // namespace skinpulse::store::postgres
