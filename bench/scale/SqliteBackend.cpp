// bench_scale on SQLite: two database files in a scratch directory, the reference written
// through SQLite's C API with the connection settings the daemon uses (WAL,
// synchronous=NORMAL, foreign keys on) and the backfill writer's 32 MiB page cache.

#include "BenchBackend.hpp"

#include <chrono>
#include <filesystem>
#include <sqlite3.h>
#include <stdexcept>
#include <unistd.h>

namespace skinpulse::bench {

std::unique_ptr<BenchBackend> makeSqliteBackend(const std::string& scratch_dir);

namespace {

class SqliteConnection {
 public:
  explicit SqliteConnection(const std::string& path) {
    if (sqlite3_open_v2(path.c_str(), &db_, SQLITE_OPEN_READWRITE, nullptr) != SQLITE_OK) {
      const std::string message = db_ ? sqlite3_errmsg(db_) : "out of memory";
      sqlite3_close(db_);
      throw std::runtime_error("sqlite3 open " + path + ": " + message);
    }
    exec("PRAGMA busy_timeout = 10000");
  }
  ~SqliteConnection() { sqlite3_close(db_); }
  SqliteConnection(const SqliteConnection&) = delete;
  SqliteConnection& operator=(const SqliteConnection&) = delete;

  void exec(const std::string& sql) {
    char* error = nullptr;
    if (sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &error) != SQLITE_OK) {
      const std::string message = error ? error : "?";
      sqlite3_free(error);
      throw std::runtime_error("sqlite3: " + sql + ": " + message);
    }
  }
  /// The first column of the first row as an integer; `fallback` when there is no row.
  std::int64_t scalar(const std::string& sql, std::int64_t fallback = 0) {
    sqlite3_stmt* st = nullptr;
    if (sqlite3_prepare_v2(db_, sql.c_str(), -1, &st, nullptr) != SQLITE_OK)
      throw std::runtime_error("sqlite3: " + sql + ": " + sqlite3_errmsg(db_));
    std::int64_t value = fallback;
    const int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW && sqlite3_column_type(st, 0) != SQLITE_NULL)
      value = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    if (rc != SQLITE_ROW && rc != SQLITE_DONE)
      throw std::runtime_error("sqlite3: " + sql + ": " + sqlite3_errmsg(db_));
    return value;
  }
  sqlite3* get() { return db_; }

 private:
  sqlite3* db_ = nullptr;
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

class SqliteInsert final : public RawInserter {
 public:
  explicit SqliteInsert(const std::string& path) : db_(path) {
    db_.exec("PRAGMA journal_mode = WAL");
    db_.exec("PRAGMA synchronous = NORMAL");
    db_.exec("PRAGMA foreign_keys = ON");
    db_.exec("PRAGMA cache_size = -32768");
    if (sqlite3_prepare_v2(db_.get(),
                           "INSERT INTO price_points (item_id, source, time, price, volume, kind,"
                           " listings, outlier) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                           -1, &insert_, nullptr) != SQLITE_OK)
      throw std::runtime_error(std::string("sqlite3 prepare: ") + sqlite3_errmsg(db_.get()));
  }
  ~SqliteInsert() override { sqlite3_finalize(insert_); }

  std::string method() const override {
    return "sqlite3 C API, one prepared one-row INSERT, one transaction per batch (WAL,"
           " synchronous=NORMAL, foreign_keys=ON, 32 MiB cache)";
  }
  void begin() override { db_.exec("BEGIN IMMEDIATE"); }
  void commit() override { db_.exec("COMMIT"); }
  void insert(const std::vector<store::PricePoint>& rows) override {
    for (const auto& p : rows) {
      sqlite3_bind_int64(insert_, 1, p.item_id);
      sqlite3_bind_text(insert_, 2, p.source.data(), static_cast<int>(p.source.size()),
                        SQLITE_STATIC);
      sqlite3_bind_int64(insert_, 3, p.time);
      sqlite3_bind_int64(insert_, 4, p.price);
      sqlite3_bind_int64(insert_, 5, p.volume);
      sqlite3_bind_text(insert_, 6, kindText(p.kind), -1, SQLITE_STATIC);
      if (p.listings)
        sqlite3_bind_int64(insert_, 7, *p.listings);
      else
        sqlite3_bind_null(insert_, 7);
      sqlite3_bind_int64(insert_, 8, p.outlier ? 1 : 0);
      const int rc = sqlite3_step(insert_);
      sqlite3_reset(insert_);
      if (rc != SQLITE_DONE)
        throw std::runtime_error(std::string("sqlite3 insert: ") + sqlite3_errmsg(db_.get()));
    }
  }

 private:
  SqliteConnection db_;
  sqlite3_stmt* insert_ = nullptr;
};

class SqliteBackend final : public BenchBackend {
 public:
  explicit SqliteBackend(const std::string& scratch_dir) {
    dir_ = std::filesystem::path(scratch_dir) / ("bench_scale_" + std::to_string(::getpid()));
    if (std::filesystem::exists(dir_)) throw std::runtime_error(dir_.string() + " already exists");
    std::filesystem::create_directories(dir_);
  }

  std::string name() const override { return "sqlite"; }
  std::string storeUrl() const override { return "sqlite://" + storePath(); }
  std::string referenceUrl() const override { return "sqlite://" + referencePath(); }
  std::unique_ptr<RawInserter> openReference() override {
    return std::make_unique<SqliteInsert>(referencePath());
  }
  TableSizes storeSizes() override { return sizes(storePath()); }
  TableSizes referenceSizes() override { return sizes(referencePath()); }
  double settle() override {
    const auto t0 = std::chrono::steady_clock::now();
    for (const auto& path : {storePath(), referencePath()}) {
      SqliteConnection db(path);
      db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
    }
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  }
  std::string where() const override { return dir_.string(); }
  void cleanup() override {
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }

 private:
  std::string storePath() const { return (dir_ / "store.db").string(); }
  std::string referencePath() const { return (dir_ / "reference.db").string(); }

  static TableSizes sizes(const std::string& path) {
    SqliteConnection db(path);
    TableSizes s;
    // dbstat (compiled into Debian's SQLite): the pages of each table and of its indexes.
    auto bytesOf = [&](const std::string& table) {
      return db.scalar(
          "SELECT SUM(d.pgsize) FROM dbstat d JOIN sqlite_master m ON d.name = m.name"
          " WHERE m.tbl_name = '" +
          table + "'");
    };
    auto exists = [&](const std::string& table) {
      return db.scalar("SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = '" +
                       table + "'") > 0;
    };
    s.raw_bytes = bytesOf("price_points");
    s.raw_rows = db.scalar("SELECT COUNT(*) FROM price_points");
    if (exists("price_rollups_hourly")) {
      s.hourly_bytes = bytesOf("price_rollups_hourly");
      s.hourly_rows = db.scalar("SELECT COUNT(*) FROM price_rollups_hourly");
    }
    if (exists("price_rollups_daily")) {
      s.daily_bytes = bytesOf("price_rollups_daily");
      s.daily_rows = db.scalar("SELECT COUNT(*) FROM price_rollups_daily");
    }
    std::error_code ec;
    s.file_bytes = 0;
    for (const char* suffix : {"", "-wal"}) {
      const auto size = std::filesystem::file_size(path + suffix, ec);
      if (!ec) s.file_bytes += static_cast<std::int64_t>(size);
    }
    return s;
  }

  std::filesystem::path dir_;
};

}  // namespace

std::unique_ptr<BenchBackend> makeSqliteBackend(const std::string& scratch_dir) {
  return std::make_unique<SqliteBackend>(scratch_dir);
}

}  // namespace skinpulse::bench
