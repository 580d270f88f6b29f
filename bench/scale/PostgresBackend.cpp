// bench_scale on PostgreSQL: two fresh schemas in the benchmark's database (search_path
// through the URL's options), the reference written with libpq COPY.

#include "BenchBackend.hpp"
#include "common/Time.hpp"
#include "store/DatabaseUrl.hpp"

#include <chrono>
#include <iostream>
#include <libpq-fe.h>
#include <stdexcept>
#include <unistd.h>

namespace skinpulse::bench {

std::unique_ptr<BenchBackend> makePostgresBackend(const std::string& url);

namespace {

class PgConnection {
 public:
  explicit PgConnection(const std::string& conninfo) : conn_(PQconnectdb(conninfo.c_str())) {
    if (PQstatus(conn_) != CONNECTION_OK) {
      const std::string message = PQerrorMessage(conn_);
      PQfinish(conn_);
      conn_ = nullptr;
      throw std::runtime_error("libpq connect: " + message);
    }
    exec("SET client_min_messages TO warning");
  }
  ~PgConnection() {
    if (conn_) PQfinish(conn_);
  }
  PgConnection(const PgConnection&) = delete;
  PgConnection& operator=(const PgConnection&) = delete;

  void exec(const std::string& sql) { query(sql); }
  /// Runs `sql`; returns the first column of every row.
  std::vector<std::string> query(const std::string& sql) {
    PGresult* r = PQexec(conn_, sql.c_str());
    const auto status = PQresultStatus(r);
    if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK) {
      const std::string message = PQresultErrorMessage(r);
      PQclear(r);
      throw std::runtime_error("libpq: " + sql + ": " + message);
    }
    std::vector<std::string> out;
    if (status == PGRES_TUPLES_OK)
      for (int i = 0; i < PQntuples(r); ++i) out.emplace_back(PQgetvalue(r, i, 0));
    PQclear(r);
    return out;
  }
  std::int64_t scalar(const std::string& sql) {
    const auto rows = query(sql);
    return rows.empty() || rows.front().empty() ? 0 : std::stoll(rows.front());
  }
  PGconn* get() { return conn_; }

 private:
  PGconn* conn_;
};

const char* kindText(sdk::PriceKind kind) {
  switch (kind) {
    case sdk::PriceKind::kBid:
      return "bid";
    case sdk::PriceKind::kSale:
      return "sale";
    case sdk::PriceKind::kReference:
      return "reference";
    default:
      return "ask";
  }
}

class PostgresCopy final : public RawInserter {
 public:
  PostgresCopy(const std::string& conninfo, const std::string& schema) : pg_(conninfo) {
    pg_.exec("SET search_path TO " + schema);
  }
  std::string method() const override {
    return "libpq COPY price_points FROM STDIN (text), one transaction per batch";
  }
  void begin() override { pg_.exec("BEGIN"); }
  void commit() override { pg_.exec("COMMIT"); }
  void insert(const std::vector<store::PricePoint>& rows) override {
    PGresult* r = PQexec(pg_.get(),
                         "COPY price_points (item_id, source, time, price, volume, kind, listings,"
                         " outlier) FROM STDIN");
    if (PQresultStatus(r) != PGRES_COPY_IN) {
      const std::string message = PQresultErrorMessage(r);
      PQclear(r);
      throw std::runtime_error("COPY: " + message);
    }
    PQclear(r);
    buffer_.clear();
    for (const auto& p : rows) {
      buffer_ += std::to_string(p.item_id);
      buffer_ += '\t';
      buffer_ += p.source;  // the stream's names need no COPY escaping
      buffer_ += '\t';
      buffer_ += std::to_string(p.time);
      buffer_ += '\t';
      buffer_ += std::to_string(p.price);
      buffer_ += '\t';
      buffer_ += std::to_string(p.volume);
      buffer_ += '\t';
      buffer_ += kindText(p.kind);
      buffer_ += '\t';
      buffer_ += p.listings ? std::to_string(*p.listings) : std::string("\\N");
      buffer_ += p.outlier ? "\t1\n" : "\t0\n";
      if (buffer_.size() > (1u << 20)) flush();
    }
    if (!buffer_.empty()) flush();
    if (PQputCopyEnd(pg_.get(), nullptr) != 1)
      throw std::runtime_error(std::string("PQputCopyEnd: ") + PQerrorMessage(pg_.get()));
    r = PQgetResult(pg_.get());
    const bool ok = PQresultStatus(r) == PGRES_COMMAND_OK;
    const std::string message = ok ? "" : PQresultErrorMessage(r);
    PQclear(r);
    while ((r = PQgetResult(pg_.get())) != nullptr) PQclear(r);
    if (!ok) throw std::runtime_error("COPY: " + message);
  }

 private:
  void flush() {
    if (PQputCopyData(pg_.get(), buffer_.data(), static_cast<int>(buffer_.size())) != 1)
      throw std::runtime_error(std::string("PQputCopyData: ") + PQerrorMessage(pg_.get()));
    buffer_.clear();
  }
  PgConnection pg_;
  std::string buffer_;
};

class PostgresBackend final : public BenchBackend {
 public:
  explicit PostgresBackend(const std::string& url)
      : url_(url), conninfo_(store::parseDatabaseUrl(url).connection_string) {
    const std::string stem =
        "bench_scale_" + std::to_string(::getpid()) + "_" + std::to_string(time::nowSeconds());
    store_schema_ = stem + "_store";
    reference_schema_ = stem + "_ref";
    PgConnection admin(conninfo_);
    for (const auto& schema : {store_schema_, reference_schema_})
      admin.exec("CREATE SCHEMA " + schema);
  }

  std::string name() const override { return "postgresql"; }
  std::string storeUrl() const override { return withSchema(store_schema_); }
  std::string referenceUrl() const override { return withSchema(reference_schema_); }
  std::unique_ptr<RawInserter> openReference() override {
    return std::make_unique<PostgresCopy>(conninfo_, reference_schema_);
  }
  TableSizes storeSizes() override { return sizes(store_schema_); }
  TableSizes referenceSizes() override { return sizes(reference_schema_); }

  double settle() override {
    PgConnection pg(conninfo_);
    pg.exec("SET search_path TO " + store_schema_);
    const auto t0 = std::chrono::steady_clock::now();
    std::string tables = "price_points";
    for (const char* rollup : {"price_rollups_hourly", "price_rollups_daily"})
      if (pg.scalar(std::string("SELECT (to_regclass('") + rollup + "') IS NOT NULL)::int"))
        tables += std::string(", ") + rollup;
    pg.exec("VACUUM (ANALYZE) " + tables);
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  }

  std::string where() const override {
    return "schemas " + store_schema_ + " and " + reference_schema_;
  }
  void cleanup() override {
    try {
      PgConnection admin(conninfo_);
      for (const auto& schema : {store_schema_, reference_schema_})
        admin.exec("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
    } catch (const std::exception& e) {
      std::cerr << "bench_scale: could not drop the schemas: " << e.what() << "\n";
    }
  }

 private:
  std::string withSchema(const std::string& schema) const {
    return url_ + (url_.find('?') == std::string::npos ? "?" : "&") + "options=-csearch_path%3D" +
           schema;
  }

  TableSizes sizes(const std::string& schema) {
    PgConnection pg(conninfo_);
    pg.exec("SET search_path TO " + schema);
    TableSizes s;
    // Every relation under price_points (partitions of partitions too) with its indexes
    // and TOAST; a partitioned parent has no storage of its own.
    const std::string tree =
        "WITH RECURSIVE tree(oid) AS (SELECT 'price_points'::regclass::oid UNION ALL"
        " SELECT i.inhrelid FROM pg_inherits i JOIN tree t ON i.inhparent = t.oid) ";
    s.raw_bytes = pg.scalar(tree + "SELECT SUM(pg_total_relation_size(oid)) FROM tree");
    s.partitions = pg.scalar(tree +
                             "SELECT COUNT(*) FROM tree JOIN pg_class c ON c.oid = tree.oid"
                             " WHERE c.relispartition AND c.relkind = 'r'");
    s.raw_rows = pg.scalar("SELECT COUNT(*) FROM price_points");
    auto rollup = [&](const char* table, std::int64_t& bytes, std::int64_t& rows) {
      if (!pg.scalar(std::string("SELECT (to_regclass('") + table + "') IS NOT NULL)::int")) return;
      bytes = pg.scalar(std::string("SELECT pg_total_relation_size('") + table + "')");
      rows = pg.scalar(std::string("SELECT COUNT(*) FROM ") + table);
    };
    rollup("price_rollups_hourly", s.hourly_bytes, s.hourly_rows);
    rollup("price_rollups_daily", s.daily_bytes, s.daily_rows);
    return s;
  }

  std::string url_;
  std::string conninfo_;
  std::string store_schema_, reference_schema_;
};

}  // namespace

std::unique_ptr<BenchBackend> makePostgresBackend(const std::string& url) {
  return std::make_unique<PostgresBackend>(url);
}

}  // namespace skinpulse::bench
