#include "store/postgres/PostgresCopy.hpp"

#include "store/Rollups.hpp"

#include <Poco/Data/PostgreSQL/SessionImpl.h>

#include <algorithm>
#include <libpq-fe.h>
#include <memory>
#include <stdexcept>
#include <string>
#include <tuple>

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

// One COPY text row without its line end: the columns of price_points, in table order.
void appendRow(std::string& out, const PricePoint& p) {
  out += std::to_string(p.item_id);
  out.push_back('\t');
  appendField(out, p.source);
  out.push_back('\t');
  out += std::to_string(p.time);
  out.push_back('\t');
  out += std::to_string(p.price);
  out.push_back('\t');
  out += std::to_string(p.volume);
  out.push_back('\t');
  out += sdk::priceKindName(p.kind);
  out.push_back('\t');
  out += p.listings ? std::to_string(*p.listings) : std::string("\\N");
  out += p.outlier ? "\t1" : "\t0";
}

// Ends a COPY FROM STDIN (aborting it when the data could not be sent) and reads its result.
void endCopy(PGconn* connection, bool sent) {
  if (PQputCopyEnd(connection, sent ? nullptr : "client failed to send data") != 1) {
    throw std::runtime_error(std::string("PostgreSQL COPY: ") + PQerrorMessage(connection));
  }
  for (Result result(PQgetResult(connection), &PQclear); result;
       result.reset(PQgetResult(connection))) {
    if (PQresultStatus(result.get()) != PGRES_COMMAND_OK) {
      throw std::runtime_error(std::string("PostgreSQL COPY: ") + PQerrorMessage(connection));
    }
  }
}

PGconn* connectionOf(Poco::Data::Session& session) {
  auto* impl = dynamic_cast<Poco::Data::PostgreSQL::SessionImpl*>(session.impl());
  if (impl == nullptr) throw std::logic_error("COPY needs a PostgreSQL session");
  return impl->handle();
}

// The batch in key order without its own duplicates: a stable sort keeps batch order
// within a key, so the first observation of a key is the one kept, as the store promises.
// Sorting here rather than in the merge spares the server a sort of the whole batch, and
// key order keeps the primary key's B-tree inserts local.
std::vector<const PricePoint*> inKeyOrder(const std::vector<PricePoint>& points) {
  std::vector<const PricePoint*> order;
  order.reserve(points.size());
  for (const auto& point : points) order.push_back(&point);
  const auto key = [](const PricePoint* p) { return std::tie(p->item_id, p->source, p->time); };
  std::stable_sort(order.begin(), order.end(),
                   [&](const PricePoint* a, const PricePoint* b) { return key(a) < key(b); });
  order.erase(
      std::unique(order.begin(), order.end(),
                  [&](const PricePoint* a, const PricePoint* b) { return key(a) == key(b); }),
      order.end());
  return order;
}

// Throws when a point names an item that is not in `items`: the check the foreign key
// made before migration 002, once per distinct item instead of a trigger per row.
void requireKnownItems(PGconn* connection, const std::vector<const PricePoint*>& order) {
  std::string ids = "{";
  for (std::size_t i = 0; i < order.size(); ++i) {
    if (i > 0 && order[i]->item_id == order[i - 1]->item_id) continue;
    if (ids.size() > 1) ids.push_back(',');
    ids += std::to_string(order[i]->item_id);
  }
  ids.push_back('}');
  const char* values[1] = {ids.c_str()};
  const Result unknown(
      PQexecParams(connection,
                   "SELECT u.id FROM unnest($1::bigint[]) AS u(id) WHERE NOT EXISTS "
                   "(SELECT 1 FROM items WHERE items.id = u.id) LIMIT 1",
                   1, nullptr, values, nullptr, nullptr, 0),
      &PQclear);
  if (!unknown || PQresultStatus(unknown.get()) != PGRES_TUPLES_OK) {
    throw std::runtime_error(std::string("PostgreSQL: ") + PQerrorMessage(connection));
  }
  if (PQntuples(unknown.get()) > 0) {
    throw std::runtime_error(std::string("price point for an item not in the catalogue (id ") +
                             PQgetvalue(unknown.get(), 0, 0) + ")");
  }
}

// How rollupCtes writes a bar into a stored one of its bucket.
enum class BarConflict {
  kMerge,     ///< mergeBar (points really new)
  kReconcile  ///< store/Rollups reconcileBar (old history, maybe imported before)
};

// "hourly AS (INSERT ...), daily AS (INSERT ...)": the bars of the rows of `rows` (a CTE or
// table with item_id, source, time, price, volume, outlier and no duplicate keys) written
// into both rollup tables. Open and close are the prices at the group's earliest and
// latest times (a key is unique, so no tie inside a group). With kReconcile, also
// "hourly_prev", the samples of the hourly bars stored before: SUM(hourly.samples) minus
// theirs (the rows it updated) is the samples the statement added (every CTE sees the same
// snapshot).
std::string rollupCtes(const std::string& rows, BarConflict conflict) {
  std::string ctes;
  for (const auto level : kRollupLevels) {
    const std::string table = rollupTable(level);
    const std::string size = std::to_string(rollupSeconds(level));
    const std::string name = level == RollupLevel::kHour ? "hourly" : "daily";
    const std::string bars = "SELECT item_id, source, time - (((time % " + size + ") + " + size +
                             ") % " + size +
                             ") AS start, (array_agg(price ORDER BY time))[1] AS open, MAX(price) "
                             "AS high, MIN(price) AS low, (array_agg(price ORDER BY time "
                             "DESC))[1] AS close, SUM(volume) AS volume, COUNT(*) AS samples, "
                             "MIN(time) AS open_time, MAX(time) AS close_time FROM " +
                             rows + " WHERE outlier = 0 GROUP BY 1, 2, 3";
    if (!ctes.empty()) ctes += ", ";
    std::string source = bars;
    if (conflict == BarConflict::kReconcile) {
      ctes += name + "_bars AS (" + bars + "), ";
      if (level == RollupLevel::kHour) {
        ctes +=
            "hourly_prev AS (SELECT item_id, source, start, r.samples FROM hourly_bars b JOIN " +
            table + " r USING (item_id, source, start)), ";
      }
      source = "SELECT * FROM " + name + "_bars";
    }
    ctes += name + " AS (INSERT INTO " + table +
            " (item_id, source, start, open, high, low, close, volume, samples, open_time, "
            "close_time) " +
            source + " " +
            (conflict == BarConflict::kMerge ? rollupMergeClause(table)
                                             : rollupReconcileClause(table)) +
            " RETURNING item_id, source, start, samples)";
  }
  return ctes;
}

constexpr const char* kInsertReturning =
    "INSERT INTO price_points (item_id, source, time, price, volume, kind, listings, outlier) "
    "SELECT item_id, source, time, price, volume, kind, listings, outlier FROM ";
constexpr const char* kReturning =
    " ON CONFLICT DO NOTHING RETURNING item_id, source, time, price, volume, outlier";

std::size_t countOf(const Result& result) {
  return PQntuples(result.get()) == 0 || PQgetisnull(result.get(), 0, 0)
             ? 0
             : std::stoull(PQgetvalue(result.get(), 0, 0));
}

// The bars of `points` (all newly inserted) folded here, COPYed into a staging table and
// merged into each rollup table with the clause of rollupMergeClause.
void mergeFoldedRollups(PGconn* connection, const std::vector<const PricePoint*>& points) {
  RollupFold fold;
  for (const auto* p : points) fold.add(*p);
  if (fold.empty()) return;
  exec(connection,
       "CREATE TEMP TABLE IF NOT EXISTS rollup_bars_staged (level SMALLINT, item_id BIGINT, "
       "source TEXT, start BIGINT, open BIGINT, high BIGINT, low BIGINT, close BIGINT, volume "
       "BIGINT, samples BIGINT, open_time BIGINT, close_time BIGINT) ON COMMIT DELETE ROWS",
       PGRES_COMMAND_OK);
  exec(connection,
       "COPY rollup_bars_staged (level, item_id, source, start, open, high, low, close, volume, "
       "samples, open_time, close_time) FROM STDIN",
       PGRES_COPY_IN);
  std::string buffer;
  buffer.reserve(fold.bars(RollupLevel::kHour).size() * 2 * 80);
  for (const auto level : kRollupLevels) {
    const char* tag = level == RollupLevel::kHour ? "0\t" : "1\t";
    for (const auto& [key, bar] : fold.bars(level)) {
      buffer += tag;
      buffer += std::to_string(std::get<0>(key));
      buffer.push_back('\t');
      appendField(buffer, std::get<1>(key));
      for (const std::int64_t value : {bar.start, bar.open, bar.high, bar.low, bar.close,
                                       bar.volume, bar.samples, bar.open_time, bar.close_time}) {
        buffer.push_back('\t');
        buffer += std::to_string(value);
      }
      buffer.push_back('\n');
    }
  }
  endCopy(connection,
          PQputCopyData(connection, buffer.data(), static_cast<int>(buffer.size())) == 1);
  for (const auto level : kRollupLevels) {
    const std::string table = rollupTable(level);
    const std::string sql =
        "INSERT INTO " + table +
        " (item_id, source, start, open, high, low, close, volume, samples, open_time, "
        "close_time) SELECT item_id, source, start, open, high, low, close, volume, samples, "
        "open_time, close_time FROM rollup_bars_staged WHERE level = " +
        (level == RollupLevel::kHour ? "0 " : "1 ") + rollupMergeClause(table);
    exec(connection, sql.c_str(), PGRES_COMMAND_OK);
  }
  exec(connection, "TRUNCATE rollup_bars_staged", PGRES_COMMAND_OK);
}

}  // namespace

std::size_t copyInsertPoints(Poco::Data::Session& session, const std::vector<PricePoint>& points) {
  PGconn* connection = connectionOf(session);

  const auto order = inKeyOrder(points);
  requireKnownItems(connection, order);

  // Per connection, emptied at every commit.
  exec(connection,
       "CREATE TEMP TABLE IF NOT EXISTS price_points_staged "
       "(item_id BIGINT, source TEXT, time BIGINT, price BIGINT, volume BIGINT, kind TEXT, "
       "listings BIGINT, outlier SMALLINT) "
       "ON COMMIT DELETE ROWS",
       PGRES_COMMAND_OK);
  exec(connection,
       "COPY price_points_staged (item_id, source, time, price, volume, kind, listings, outlier) "
       "FROM "
       "STDIN",
       PGRES_COPY_IN);
  std::string buffer;
  buffer.reserve(order.size() * 40);
  for (const auto* p : order) {
    appendRow(buffer, *p);
    buffer.push_back('\n');
  }
  endCopy(connection,
          PQputCopyData(connection, buffer.data(), static_cast<int>(buffer.size())) == 1);
  // Staged in key order: the merge needs no sort, and ON CONFLICT keeps stored points.
  // Usually every point of a cycle is new: then the rollups are the fold of the batch,
  // folded here and merged from a staged copy (the server's array_agg per group was most
  // of the statement). A savepoint lets a batch with stored keys take the general path.
  exec(connection, "SAVEPOINT copy_insert_points", PGRES_COMMAND_OK);
  const std::string insert =
      std::string(kInsertReturning) + "price_points_staged" + " ON CONFLICT DO NOTHING";
  const Result plain = exec(connection, insert.c_str(), PGRES_COMMAND_OK);
  std::size_t count = 0;
  if (std::stoull(PQcmdTuples(plain.get())) == order.size()) {
    exec(connection, "RELEASE SAVEPOINT copy_insert_points", PGRES_COMMAND_OK);
    mergeFoldedRollups(connection, order);
    count = order.size();
  } else {
    exec(connection, "ROLLBACK TO SAVEPOINT copy_insert_points", PGRES_COMMAND_OK);
    exec(connection, "RELEASE SAVEPOINT copy_insert_points", PGRES_COMMAND_OK);
    // The rows really inserted (RETURNING) feed the rollups in the same statement.
    const std::string merge = std::string("WITH ins AS (") + kInsertReturning +
                              "price_points_staged" + kReturning + "), " +
                              rollupCtes("ins", BarConflict::kMerge) + " SELECT COUNT(*) FROM ins";
    count = countOf(exec(connection, merge.c_str(), PGRES_TUPLES_OK));
  }
  exec(connection, "TRUNCATE price_points_staged", PGRES_COMMAND_OK);
  return count;
}

CopyStream::CopyStream(Poco::Data::Session& session) : connection_(connectionOf(session)) {
  // A sequence column keeps the first observation of a key the one stored, as insert() does;
  // the table lives until the commit.
  exec(connection_,
       "CREATE TEMP TABLE price_points_streamed (seq BIGSERIAL, item_id BIGINT, source TEXT, "
       "time BIGINT, price BIGINT, volume BIGINT, kind TEXT, listings BIGINT, outlier SMALLINT) "
       "ON COMMIT DROP",
       PGRES_COMMAND_OK);
  exec(connection_,
       "COPY price_points_streamed (item_id, source, time, price, volume, kind, listings, "
       "outlier) FROM STDIN",
       PGRES_COPY_IN);
  buffer_.reserve(kFlushBytes + 4096);
}

CopyStream::~CopyStream() {
  if (!copying_) return;
  if (PQputCopyEnd(connection_, "backfill abandoned") == 1) {
    while (PGresult* result = PQgetResult(connection_)) PQclear(result);
  }
}

void CopyStream::add(const std::vector<PricePoint>& points) {
  for (const auto& point : points) {
    appendRow(buffer_, point);
    buffer_.push_back('\n');
    if (buffer_.size() >= kFlushBytes) flush();
  }
}

void CopyStream::flush() {
  if (buffer_.empty()) return;
  if (PQputCopyData(connection_, buffer_.data(), static_cast<int>(buffer_.size())) != 1) {
    copying_ = false;
    endCopy(connection_, false);
  }
  buffer_.clear();
}

std::size_t CopyStream::finish(std::int64_t raw_from) {
  flush();
  copying_ = false;
  endCopy(connection_, true);
  const Result unknown = exec(connection_,
                              "SELECT s.item_id FROM (SELECT DISTINCT item_id FROM "
                              "price_points_streamed) AS s WHERE NOT EXISTS (SELECT 1 FROM "
                              "items WHERE items.id = s.item_id) LIMIT 1",
                              PGRES_TUPLES_OK);
  if (PQntuples(unknown.get()) > 0) {
    throw std::runtime_error(std::string("price point for an item not in the catalogue (id ") +
                             PQgetvalue(unknown.get(), 0, 0) + ")");
  }
  // The first observation of each key; then the points within the raw retention stored
  // and merged into their rollups, the older ones into the rollups only (reconciled with a
  // bar already stored: re-importing the same history changes nothing).
  const std::string cut = std::to_string(raw_from);
  const std::string fresh =
      "SELECT DISTINCT ON (item_id, source, time) item_id, source, time, price, volume, kind, "
      "listings, outlier FROM price_points_streamed WHERE time ";
  const std::string order = " ORDER BY item_id, source, time, seq";
  const std::string raw = "WITH fresh AS (" + fresh + ">= " + cut + order + "), ins AS (" +
                          kInsertReturning + "fresh" + kReturning + "), " +
                          rollupCtes("ins", BarConflict::kMerge) + " SELECT COUNT(*) FROM ins";
  std::size_t stored = countOf(exec(connection_, raw.c_str(), PGRES_TUPLES_OK));
  const std::string old = "WITH old AS (" + fresh + "< " + cut + order + "), " +
                          rollupCtes("old", BarConflict::kReconcile) +
                          " SELECT (SELECT COALESCE(SUM(samples), 0) FROM hourly) - (SELECT "
                          "COALESCE(SUM(p.samples), 0) FROM hourly_prev p JOIN hourly h USING "
                          "(item_id, source, start))";
  stored += countOf(exec(connection_, old.c_str(), PGRES_TUPLES_OK));
  return stored;
}

}  // namespace skinpulse::store::postgres
