// bench_ingest: the ingest path against the database's own bulk-insert rate, measured in
// the same run, in the same database (bench/README.md, "ingest/run.sh").
//
//   bench_ingest --database URL --share DIR [--items 25000] [--sources 4] [--runs 5]
//                [--history-points 8000] [--history-calls 50] [--json FILE] [--keep]
//
// URL: `sqlite` (a temp file, deleted at the end), `sqlite://PATH` (must not exist; deleted
// at the end) or a PostgreSQL URL of a database dedicated to benchmarks: everything is
// created in a fresh schema (search_path through the URL's options) dropped at the end.
//
// Measured:
//   cycle    IngestCycle::run over SOURCES batches of ITEMS observations each (names from
//            the seeded catalogue, prices as cents / major / "$1,234.56" text), new
//            observation times each run, so every point is new. Median of RUNS.
//   dedupe   the last cycle again, unchanged: every point is a duplicate.
//   raw      the same rows inserted raw into price_points_raw (same columns, primary key
//            and time index as price_points), interleaved with the cycles: SQLite through
//            the C API (one prepared INSERT, one transaction, WAL, synchronous=NORMAL),
//            PostgreSQL through libpq COPY FROM STDIN in one transaction.
//   history  PriceStore::history(item, now - 7 d, nullopt) on an item with
//            HISTORY_POINTS points over 7 days, HISTORY_CALLS calls, p50 and p99.

#include "catalog/Catalog.hpp"
#include "common/Time.hpp"
#include "ingest/IngestCycle.hpp"
#include "ingest/Normaliser.hpp"
#include "prices/LatestPrices.hpp"
#include "store/Database.hpp"
#include "store/DatabaseUrl.hpp"

#include <sqlite3.h>
#ifdef BENCH_WITH_POSTGRES
#include <libpq-fe.h>
#endif

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <unistd.h>
#include <vector>

namespace {

using namespace skinpulse;
using Clock = std::chrono::steady_clock;

struct Options {
  std::string database;
  std::string share;
  std::size_t items = 25000;
  std::size_t sources = 4;
  std::size_t runs = 5;
  std::size_t history_points = 8000;
  std::size_t history_calls = 50;
  std::string json;
  bool keep = false;
};

[[noreturn]] void usage(const std::string& problem) {
  std::cerr << "bench_ingest: " << problem
            << "\nusage: bench_ingest --database URL --share DIR [--items 25000] [--sources 4]"
               " [--runs 5] [--history-points 8000] [--history-calls 50] [--json FILE] [--keep]\n";
  std::exit(2);
}

Options parseOptions(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) usage(arg + " needs a value");
      return argv[++i];
    };
    auto count = [&]() -> std::size_t {
      const std::string v = value();
      try {
        const long long n = std::stoll(v);
        if (n <= 0) throw std::invalid_argument(v);
        return static_cast<std::size_t>(n);
      } catch (const std::exception&) {
        usage(arg + " wants a positive integer, not '" + v + "'");
      }
    };
    if (arg == "--database")
      o.database = value();
    else if (arg == "--share")
      o.share = value();
    else if (arg == "--items")
      o.items = count();
    else if (arg == "--sources")
      o.sources = count();
    else if (arg == "--runs")
      o.runs = count();
    else if (arg == "--history-points")
      o.history_points = count();
    else if (arg == "--history-calls")
      o.history_calls = count();
    else if (arg == "--json")
      o.json = value();
    else if (arg == "--keep")
      o.keep = true;
    else if (arg == "-h" || arg == "--help")
      usage("help");
    else
      usage("unknown option " + arg);
  }
  if (o.database.empty()) usage("--database is required");
  if (o.share.empty()) usage("--share is required");
  return o;
}

double seconds(Clock::duration d) { return std::chrono::duration<double>(d).count(); }

// CPU time of this process (all threads), seconds: the cycle's client-side cost.
double processCpu() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) / 1e9;
}

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

// Nearest-rank percentile.
double percentile(std::vector<double> v, double p) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  auto rank = static_cast<std::size_t>(std::ceil(p / 100.0 * static_cast<double>(v.size())));
  rank = std::clamp<std::size_t>(rank, 1, v.size());
  return v[rank - 1];
}

// ---------------------------------------------------------------------------------------
// Synthetic catalogue and observations.

std::vector<store::CatalogEntry> syntheticCatalogue(std::size_t n) {
  static const char* weapons[] = {
      "AK-47",    "M4A4",      "M4A1-S",     "AWP",      "Desert Eagle",  "Glock-18",
      "USP-S",    "P250",      "Five-SeveN", "Tec-9",    "CZ75-Auto",     "FAMAS",
      "Galil AR", "SG 553",    "AUG",        "SSG 08",   "MAC-10",        "MP9",
      "MP7",      "UMP-45",    "P90",        "PP-Bizon", "Nova",          "XM1014",
      "MAG-7",    "Sawed-Off", "Negev",      "M249",     "Dual Berettas", "R8 Revolver"};
  static const char* first[] = {"Crimson", "Neon",  "Desert", "Urban", "Arctic", "Golden", "Jungle",
                                "Cobalt",  "Toxic", "Royal",  "Night", "Sun",    "Blood",  "Ocean",
                                "Safari",  "Candy", "Iron",   "Fire",  "Storm",  "Ivory"};
  static const char* second[] = {"Redline", "Asiimov", "Hyper Beast", "Vulcan", "Fade",
                                 "Web",     "Tiger",   "Dragon",      "Lore",   "Doppler",
                                 "Serpent", "Phantom", "Wasteland",   "Orbit",  "Cartel"};
  static const char* wears[] = {"Factory New", "Minimal Wear", "Field-Tested", "Well-Worn",
                                "Battle-Scarred"};
  static const char* rarities[] = {"Consumer Grade", "Industrial Grade", "Mil-Spec Grade",
                                   "Restricted",     "Classified",       "Covert"};
  constexpr std::size_t nw = std::size(weapons), nf = std::size(first), ns = std::size(second),
                        nwear = std::size(wears);
  const std::size_t combos = nw * nf * ns * nwear * 2;
  if (n > combos) throw std::runtime_error("--items is larger than the synthetic name space");
  std::vector<store::CatalogEntry> out;
  out.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    std::size_t k = i;
    const std::size_t w = k % nw;
    k /= nw;
    const std::size_t wear = k % nwear;
    k /= nwear;
    const std::size_t f = k % nf;
    k /= nf;
    const std::size_t s = k % ns;
    k /= ns;
    const bool stattrak = k % 2 == 1;
    store::CatalogEntry e;
    e.weapon_type = weapons[w];
    e.skin_name = std::string(first[f]) + " " + second[s];
    e.rarity = rarities[(f + s) % std::size(rarities)];
    e.stattrak = stattrak;
    e.market_hash_name = std::string(stattrak ? "StatTrak\u2122 " : "") + e.weapon_type + " | " +
                         e.skin_name + " (" + wears[wear] + ")";
    e.image_url = "https://cdn.example.invalid/econ/" + std::to_string(i) + ".png";
    out.push_back(std::move(e));
  }
  return out;
}

std::string dollarText(std::int64_t cents) {
  std::string major = std::to_string(cents / 100);
  std::string grouped;
  const std::size_t lead = major.size() % 3 == 0 ? 3 : major.size() % 3;
  for (std::size_t i = 0; i < major.size(); ++i) {
    if (i != 0 && (i - lead) % 3 == 0 && i >= lead) grouped += ',';
    grouped += major[i];
  }
  char frac[4];
  std::snprintf(frac, sizeof frac, "%02d", static_cast<int>(cents % 100));
  return "$" + grouped + "." + frac;
}

// A deterministic price per (item, source, run): 3 cents .. ~$25,000.
std::int64_t priceFor(std::size_t item, std::size_t source, std::size_t run) {
  std::uint64_t x =
      item * 0x9E3779B97F4A7C15ull + source * 0xBF58476D1CE4E5B9ull + run * 0x94D049BB133111EBull;
  x ^= x >> 31;
  x *= 0xD6E8FEB86659FD93ull;
  x ^= x >> 32;
  const double u = static_cast<double>(x % 1000000) / 1e6;  // [0,1)
  return static_cast<std::int64_t>(3 + std::pow(u, 4.0) * 2500000.0);
}

std::vector<ingest::SourceBatch> makeBatches(const std::vector<store::CatalogEntry>& catalogue,
                                             std::size_t sources, std::size_t run,
                                             std::int64_t time) {
  std::vector<ingest::SourceBatch> batches;
  for (std::size_t s = 0; s < sources; ++s) {
    ingest::SourceBatch batch;
    batch.source = "market-" + std::string(1, static_cast<char>('a' + s % 26)) +
                   (s >= 26 ? std::to_string(s) : std::string());
    batch.poll_time = time;
    batch.observations.reserve(catalogue.size());
    for (std::size_t i = 0; i < catalogue.size(); ++i) {
      sdk::Observation o;
      o.market_hash_name = catalogue[i].market_hash_name;
      if (i % 50 == 7) o.market_hash_name += ' ';  // upstreams are not always tidy
      const std::int64_t cents = priceFor(i, s, run);
      switch ((i + s) % 3) {
        case 0:
          o.price.form = sdk::QuotedPrice::Form::kCents;
          o.price.cents = cents;
          break;
        case 1:
          o.price.form = sdk::QuotedPrice::Form::kMajor;
          o.price.major = static_cast<double>(cents) / 100.0;
          break;
        default:
          o.price.form = sdk::QuotedPrice::Form::kText;
          o.price.text = dollarText(cents);
          break;
      }
      o.volume = static_cast<std::int64_t>((i * 7 + s * 13 + run) % 500);
      // Half the sources give their own time, the others leave it to the poll time.
      if (s % 2 == 0) o.observed_at = time;
      batch.observations.push_back(std::move(o));
    }
    batches.push_back(std::move(batch));
  }
  return batches;
}

// ---------------------------------------------------------------------------------------
// Raw reference inserters.

class RawInserter {
 public:
  virtual ~RawInserter() = default;
  virtual void insert(const std::vector<store::PricePoint>& rows) = 0;
  virtual std::string method() const = 0;
  /// The history query's SQL on price_points through the C API, rows decoded into
  /// PricePoint: what PriceStore::history costs without Poco::Data. Returns the rows.
  virtual std::size_t history(std::int64_t item_id, std::int64_t since) = 0;
  /// PostgreSQL only: COPY into a temp table, then one INSERT ... SELECT ... ON CONFLICT
  /// DO NOTHING into price_points_staged (same shape): a candidate for the store's path.
  virtual bool hasStaged() const { return false; }
  virtual void insertStaged(const std::vector<store::PricePoint>&) {}
};

void sqliteCheck(sqlite3* db, int rc, const char* what) {
  if (rc != SQLITE_OK && rc != SQLITE_DONE && rc != SQLITE_ROW) {
    throw std::runtime_error(std::string("sqlite3 ") + what + ": " + sqlite3_errmsg(db));
  }
}

class SqliteRaw final : public RawInserter {
 public:
  explicit SqliteRaw(const std::string& path) {
    sqliteCheck(db_, sqlite3_open_v2(path.c_str(), &db_, SQLITE_OPEN_READWRITE, nullptr), "open");
    exec("PRAGMA busy_timeout = 10000");
    exec("PRAGMA journal_mode = WAL");
    exec("PRAGMA synchronous = NORMAL");
    // The shape of price_points (share/sql/sqlite/001_initial.sql) without the foreign key.
    exec(
        "CREATE TABLE price_points_raw (item_id INTEGER NOT NULL, source TEXT NOT NULL,"
        " time INTEGER NOT NULL, price INTEGER NOT NULL, volume INTEGER NOT NULL DEFAULT 0,"
        " PRIMARY KEY (item_id, source, time)) WITHOUT ROWID");
    exec("CREATE INDEX price_points_raw_time ON price_points_raw (time)");
  }
  ~SqliteRaw() override { sqlite3_close(db_); }

  void insert(const std::vector<store::PricePoint>& rows) override {
    exec("BEGIN");
    sqlite3_stmt* st = nullptr;
    sqliteCheck(db_,
                sqlite3_prepare_v2(db_,
                                   "INSERT INTO price_points_raw (item_id, source, time, price,"
                                   " volume) VALUES (?, ?, ?, ?, ?)",
                                   -1, &st, nullptr),
                "prepare");
    for (const auto& r : rows) {
      sqlite3_bind_int64(st, 1, r.item_id);
      sqlite3_bind_text(st, 2, r.source.data(), static_cast<int>(r.source.size()), SQLITE_STATIC);
      sqlite3_bind_int64(st, 3, r.time);
      sqlite3_bind_int64(st, 4, r.price);
      sqlite3_bind_int64(st, 5, r.volume);
      const int rc = sqlite3_step(st);
      if (rc != SQLITE_DONE) {
        sqlite3_finalize(st);
        exec("ROLLBACK");
        sqliteCheck(db_, rc, "step");
      }
      sqlite3_reset(st);
    }
    sqlite3_finalize(st);
    exec("COMMIT");
  }
  std::string method() const override {
    return "sqlite3 C API, prepared INSERT, 1 txn, WAL, synchronous=NORMAL";
  }
  std::size_t history(std::int64_t item_id, std::int64_t since) override {
    sqlite3_stmt* st = nullptr;
    sqliteCheck(db_,
                sqlite3_prepare_v2(db_,
                                   "SELECT item_id, source, time, price, volume FROM price_points"
                                   " WHERE item_id = ? AND time > ? ORDER BY time, source",
                                   -1, &st, nullptr),
                "prepare");
    sqlite3_bind_int64(st, 1, item_id);
    sqlite3_bind_int64(st, 2, since);
    std::vector<store::PricePoint> out;
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
      out.push_back(store::PricePoint{
          sqlite3_column_int64(st, 0),
          std::string(reinterpret_cast<const char*>(sqlite3_column_text(st, 1)),
                      static_cast<std::size_t>(sqlite3_column_bytes(st, 1))),
          sqlite3_column_int64(st, 2), sqlite3_column_int64(st, 3), sqlite3_column_int64(st, 4)});
    }
    sqlite3_finalize(st);
    sqliteCheck(db_, rc, "step");
    return out.size();
  }

 private:
  void exec(const char* sql) {
    char* error = nullptr;
    if (sqlite3_exec(db_, sql, nullptr, nullptr, &error) != SQLITE_OK) {
      std::string message = error ? error : "?";
      sqlite3_free(error);
      throw std::runtime_error(std::string("sqlite3 ") + sql + ": " + message);
    }
  }
  sqlite3* db_ = nullptr;
};

#ifdef BENCH_WITH_POSTGRES
class PgConn {
 public:
  explicit PgConn(const std::string& conninfo) : conn_(PQconnectdb(conninfo.c_str())) {
    if (PQstatus(conn_) != CONNECTION_OK) {
      const std::string message = PQerrorMessage(conn_);
      PQfinish(conn_);
      conn_ = nullptr;
      throw std::runtime_error("libpq connect: " + message);
    }
    exec("SET client_min_messages TO warning");
  }
  ~PgConn() {
    if (conn_) PQfinish(conn_);
  }
  PgConn(const PgConn&) = delete;
  PgConn& operator=(const PgConn&) = delete;

  void exec(const std::string& sql) {
    PGresult* r = PQexec(conn_, sql.c_str());
    const auto status = PQresultStatus(r);
    const bool ok = status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK;
    const std::string message = ok ? "" : PQresultErrorMessage(r);
    PQclear(r);
    if (!ok) throw std::runtime_error("libpq: " + sql + ": " + message);
  }
  PGconn* get() { return conn_; }

 private:
  PGconn* conn_;
};

class PostgresRaw final : public RawInserter {
 public:
  explicit PostgresRaw(const std::string& conninfo) : pg_(conninfo) {
    // The shape of price_points (share/sql/postgresql/001_initial.sql) without the FK.
    pg_.exec(
        "CREATE TABLE price_points_raw (item_id BIGINT NOT NULL, source TEXT COLLATE \"C\""
        " NOT NULL, time BIGINT NOT NULL, price BIGINT NOT NULL, volume BIGINT NOT NULL"
        " DEFAULT 0, PRIMARY KEY (item_id, source, time))");
    pg_.exec("CREATE INDEX price_points_raw_time ON price_points_raw (time)");
    pg_.exec("CREATE TABLE price_points_staged (LIKE price_points_raw INCLUDING ALL)");
  }

  bool hasStaged() const override { return true; }
  void insertStaged(const std::vector<store::PricePoint>& rows) override {
    pg_.exec("BEGIN");
    pg_.exec(
        "CREATE TEMP TABLE price_stage (item_id BIGINT, source TEXT COLLATE \"C\","
        " time BIGINT, price BIGINT, volume BIGINT) ON COMMIT DROP");
    copy("price_stage", rows);
    pg_.exec(
        "INSERT INTO price_points_staged SELECT * FROM price_stage ORDER BY item_id, source, time "
        "ON CONFLICT DO NOTHING");
    pg_.exec("COMMIT");
  }

  std::size_t history(std::int64_t item_id, std::int64_t since) override {
    const std::string a = std::to_string(item_id), b = std::to_string(since);
    const char* params[] = {a.c_str(), b.c_str()};
    PGresult* r = PQexecParams(pg_.get(),
                               "SELECT item_id, source, time, price, volume FROM price_points"
                               " WHERE item_id = $1 AND time > $2 ORDER BY time, source",
                               2, nullptr, params, nullptr, nullptr, 0);
    if (PQresultStatus(r) != PGRES_TUPLES_OK) {
      const std::string message = PQresultErrorMessage(r);
      PQclear(r);
      throw std::runtime_error("history: " + message);
    }
    const int n = PQntuples(r);
    std::vector<store::PricePoint> out;
    out.reserve(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) {
      out.push_back(store::PricePoint{
          std::strtoll(PQgetvalue(r, i, 0), nullptr, 10),
          std::string(PQgetvalue(r, i, 1), static_cast<std::size_t>(PQgetlength(r, i, 1))),
          std::strtoll(PQgetvalue(r, i, 2), nullptr, 10),
          std::strtoll(PQgetvalue(r, i, 3), nullptr, 10),
          std::strtoll(PQgetvalue(r, i, 4), nullptr, 10)});
    }
    PQclear(r);
    return out.size();
  }

  void insert(const std::vector<store::PricePoint>& rows) override {
    pg_.exec("BEGIN");
    copy("price_points_raw", rows);
    pg_.exec("COMMIT");
  }
  std::string method() const override { return "libpq COPY FROM STDIN (text), 1 txn"; }

 private:
  void copy(const std::string& table, const std::vector<store::PricePoint>& rows) {
    PGresult* r = PQexec(pg_.get(), ("COPY " + table +
                                     " (item_id, source, time, price, volume)"
                                     " FROM STDIN")
                                        .c_str());
    if (PQresultStatus(r) != PGRES_COPY_IN) {
      const std::string message = PQresultErrorMessage(r);
      PQclear(r);
      throw std::runtime_error("COPY: " + message);
    }
    PQclear(r);
    std::string buffer;
    buffer.reserve(1 << 20);
    auto flush = [&] {
      if (PQputCopyData(pg_.get(), buffer.data(), static_cast<int>(buffer.size())) != 1)
        throw std::runtime_error(std::string("PQputCopyData: ") + PQerrorMessage(pg_.get()));
      buffer.clear();
    };
    for (const auto& p : rows) {
      buffer += std::to_string(p.item_id);
      buffer += '\t';
      buffer += p.source;  // our names need no COPY escaping
      buffer += '\t';
      buffer += std::to_string(p.time);
      buffer += '\t';
      buffer += std::to_string(p.price);
      buffer += '\t';
      buffer += std::to_string(p.volume);
      buffer += '\n';
      if (buffer.size() > (1 << 20) - 256) flush();
    }
    if (!buffer.empty()) flush();
    if (PQputCopyEnd(pg_.get(), nullptr) != 1)
      throw std::runtime_error(std::string("PQputCopyEnd: ") + PQerrorMessage(pg_.get()));
    r = PQgetResult(pg_.get());
    const bool ok = PQresultStatus(r) == PGRES_COMMAND_OK;
    const std::string message = ok ? "" : PQresultErrorMessage(r);
    PQclear(r);
    while ((r = PQgetResult(pg_.get())) != nullptr) PQclear(r);
    if (!ok) {
      pg_.exec("ROLLBACK");
      throw std::runtime_error("COPY: " + message);
    }
  }

  PgConn pg_;
};
#endif

// ---------------------------------------------------------------------------------------
// Where the benchmark's data lives, and its removal.

struct Scratch {
  std::string url;          ///< what openDatabase gets
  std::string sqlite_path;  ///< SQLite: the file to delete
  std::string admin_url;    ///< PostgreSQL: the URL as given
  std::string schema;       ///< PostgreSQL: the schema to drop
  store::Backend backend = store::Backend::kSqlite;

  void cleanup() {
    if (backend == store::Backend::kSqlite && !sqlite_path.empty()) {
      for (const char* suffix : {"", "-wal", "-shm", "-journal"}) {
        std::error_code ec;
        std::filesystem::remove(sqlite_path + suffix, ec);
      }
      sqlite_path.clear();
    }
#ifdef BENCH_WITH_POSTGRES
    if (backend == store::Backend::kPostgres && !schema.empty()) {
      try {
        PgConn admin(store::parseDatabaseUrl(admin_url).connection_string);
        admin.exec("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
      } catch (const std::exception& e) {
        std::cerr << "bench_ingest: could not drop schema " << schema << ": " << e.what() << "\n";
      }
      schema.clear();
    }
#endif
  }
};

Scratch makeScratch(const std::string& given) {
  Scratch s;
  if (given == "sqlite" || given == "sqlite://") {
    const char* tmp = std::getenv("TMPDIR");
    s.sqlite_path = std::string(tmp && *tmp ? tmp : "/tmp") + "/bench_ingest_" +
                    std::to_string(::getpid()) + ".db";
    s.url = "sqlite://" + s.sqlite_path;
    if (std::filesystem::exists(s.sqlite_path))
      throw std::runtime_error(s.sqlite_path + " already exists");
    return s;
  }
  const store::DatabaseUrl parsed = store::parseDatabaseUrl(given);
  s.backend = parsed.backend;
  if (parsed.backend == store::Backend::kSqlite) {
    if (parsed.in_memory) throw std::runtime_error("use a file, not :memory:");
    if (std::filesystem::exists(parsed.connection_string))
      throw std::runtime_error(parsed.connection_string + " already exists; give a new path");
    s.sqlite_path = parsed.connection_string;
    s.url = given;
    return s;
  }
#ifdef BENCH_WITH_POSTGRES
  s.admin_url = given;
  s.schema =
      "bench_ingest_" + std::to_string(::getpid()) + "_" + std::to_string(time::nowSeconds());
  PgConn admin(parsed.connection_string);
  admin.exec("DROP SCHEMA IF EXISTS " + s.schema + " CASCADE");
  admin.exec("CREATE SCHEMA " + s.schema);
  s.url = given + (given.find('?') == std::string::npos ? "?" : "&") + "options=-csearch_path%3D" +
          s.schema;
  return s;
#else
  throw std::runtime_error("built without PostgreSQL");
#endif
}

// ---------------------------------------------------------------------------------------

std::string jsonEscape(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    if (static_cast<unsigned char>(c) < 0x20) continue;
    out += c;
  }
  return out;
}

std::string hostName() {
  char buf[256] = {0};
  if (gethostname(buf, sizeof buf - 1) != 0) return "?";
  return buf;
}

int runBenchmark(const Options& opt, Scratch& scratch) {
  const std::string backend_name =
      scratch.backend == store::Backend::kSqlite ? "sqlite" : "postgresql";
  std::cerr << "bench_ingest: " << backend_name << ", " << opt.items << " items x " << opt.sources
            << " sources, " << opt.runs << " runs\n";
  auto db = store::openDatabase(scratch.url, opt.share + "/sql");

  // Catalogue, plus one extra item that carries the long history.
  const std::int64_t now = time::nowSeconds();
  auto catalogue = syntheticCatalogue(opt.items);
  db->catalog().seed(catalogue, now);
  catalog::Catalog catalog;
  catalog.reset(db->catalog().allItems());
  prices::LatestPrices latest;
  latest.reset(db->prices().latestPerItemSource());
  ingest::IngestCycle cycle(*db, catalog, latest, false);

  std::unique_ptr<RawInserter> raw;
  if (scratch.backend == store::Backend::kSqlite) {
    raw = std::make_unique<SqliteRaw>(scratch.sqlite_path);
  } else {
#ifdef BENCH_WITH_POSTGRES
    raw = std::make_unique<PostgresRaw>(store::parseDatabaseUrl(scratch.url).connection_string);
#endif
  }

  const std::size_t per_cycle = opt.items * opt.sources;
  std::vector<double> cycle_s, raw_s, normalise_s, cycle_cpu_s, staged_s;
  std::vector<ingest::SourceBatch> last_batches;
  // Cycle times: one poll a minute, ending just before now; run 0 is a warm-up.
  const std::int64_t first_time = now - 60 * static_cast<std::int64_t>(opt.runs + 2);
  for (std::size_t run = 0; run <= opt.runs; ++run) {
    const std::int64_t t = first_time + 60 * static_cast<std::int64_t>(run);
    auto batches = makeBatches(catalogue, opt.sources, run, t);

    // The rows the raw reference inserts: exactly the points the cycle stores.
    std::vector<store::PricePoint> rows;
    rows.reserve(per_cycle);
    const auto snap = catalog.snapshot();
    const auto n0 = Clock::now();
    for (const auto& b : batches) {
      auto nb = ingest::normalise(b.source, b.poll_time, b.observations, *snap);
      if (!nb.rejected.empty()) throw std::runtime_error("normaliser rejected synthetic points");
      rows.insert(rows.end(), std::make_move_iterator(nb.points.begin()),
                  std::make_move_iterator(nb.points.end()));
    }
    const double norm = seconds(Clock::now() - n0);

    double cpu = 0;
    auto timeCycle = [&] {
      const double cpu0 = processCpu();
      const auto c0 = Clock::now();
      const auto outcome = cycle.run(batches);
      const double s = seconds(Clock::now() - c0);
      cpu = processCpu() - cpu0;
      if (outcome.stored != per_cycle)
        throw std::runtime_error("cycle stored " + std::to_string(outcome.stored) + " of " +
                                 std::to_string(per_cycle));
      return s;
    };
    auto timeRaw = [&] {
      const auto r0 = Clock::now();
      raw->insert(rows);
      return seconds(Clock::now() - r0);
    };
    // Interleaved: odd runs raw first, even runs the cycle first, so drift hits both.
    double c = 0, r = 0, st = 0;
    auto timeStaged = [&] {
      if (!raw->hasStaged()) return 0.0;
      const auto s0 = Clock::now();
      raw->insertStaged(rows);
      return seconds(Clock::now() - s0);
    };
    if (run % 2 == 1) {
      r = timeRaw();
      st = timeStaged();
      c = timeCycle();
    } else {
      c = timeCycle();
      st = timeStaged();
      r = timeRaw();
    }
    std::cerr << (run == 0 ? "  warm-up" : "  run " + std::to_string(run)) << ": cycle " << c * 1000
              << " ms (" << static_cast<long long>(per_cycle / c) << " points/s; normalise alone "
              << norm * 1000 << " ms; our process's CPU " << cpu * 1000 << " ms), raw " << r * 1000
              << " ms (" << static_cast<long long>(per_cycle / r) << " rows/s)";
    if (raw->hasStaged()) std::cerr << ", COPY+merge " << st * 1000 << " ms";
    std::cerr << "\n";
    if (run > 0) {
      cycle_s.push_back(c);
      cycle_cpu_s.push_back(cpu);
      if (raw->hasStaged()) staged_s.push_back(st);
      raw_s.push_back(r);
      normalise_s.push_back(norm);
    }
    last_batches = std::move(batches);
  }

  // Dedupe: the last cycle again; nothing is new.
  std::vector<double> dedupe_s;
  for (int i = 0; i < 3; ++i) {
    const auto d0 = Clock::now();
    const auto outcome = cycle.run(last_batches);
    dedupe_s.push_back(seconds(Clock::now() - d0));
    if (outcome.stored != 0) throw std::runtime_error("dedupe cycle stored new points");
  }
  std::cerr << "  dedupe cycle: " << median(dedupe_s) * 1000 << " ms (median of 3)\n";

  // History: one item with HISTORY_POINTS points over the last 7 days, in its own
  // source, on top of what the cycles stored for it.
  const std::int64_t item_id = catalog.snapshot()->items().at(opt.items / 2).record.id;
  {
    std::vector<store::PricePoint> points;
    const std::int64_t span = 7 * 86400 - 120;
    for (std::size_t i = 0; i < opt.history_points; ++i) {
      const std::int64_t t =
          now - span +
          static_cast<std::int64_t>(i) * span / static_cast<std::int64_t>(opt.history_points);
      points.push_back(store::PricePoint{item_id, "history-src", t,
                                         priceFor(static_cast<std::size_t>(item_id), 99, i), 1});
    }
    if (db->prices().insert(points) != points.size())
      throw std::runtime_error("history points not all new");
  }
  const std::int64_t since = now - 7 * 86400;
  std::size_t history_rows = 0;
  for (int i = 0; i < 3; ++i)
    history_rows = db->prices().history(item_id, since, std::nullopt).size();
  std::vector<double> history_ms;
  for (std::size_t i = 0; i < opt.history_calls; ++i) {
    const auto h0 = Clock::now();
    const auto rows = db->prices().history(item_id, since, std::nullopt);
    history_ms.push_back(seconds(Clock::now() - h0) * 1000);
    if (rows.size() != history_rows) throw std::runtime_error("history changed size");
  }

  std::vector<double> raw_history_ms;
  for (std::size_t i = 0; i < opt.history_calls; ++i) {
    const auto h0 = Clock::now();
    const std::size_t n = raw->history(item_id, since);
    raw_history_ms.push_back(seconds(Clock::now() - h0) * 1000);
    if (n != history_rows) throw std::runtime_error("raw history returned a different count");
  }

  const double cycle_med = median(cycle_s);
  const double raw_med = median(raw_s);
  const double cycle_rate = static_cast<double>(per_cycle) / cycle_med;
  const double raw_rate = static_cast<double>(per_cycle) / raw_med;
  const double ratio = cycle_rate / raw_rate;
  const double dedupe_ms = median(dedupe_s) * 1000;
  const double h50 = percentile(history_ms, 50), h99 = percentile(history_ms, 99);

  char line[512];
  std::printf(
      "\nbench_ingest %s: %zu points per cycle (%zu items x %zu sources), median of %zu runs\n",
      backend_name.c_str(), per_cycle, opt.items, opt.sources, opt.runs);
  std::printf("raw reference: %s\n\n", raw->method().c_str());
  std::printf("| %-34s | %14s |\n", "measure", "value");
  std::printf("|%s|%s|\n", std::string(36, '-').c_str(), std::string(15, '-').append(":").c_str());
  auto row = [&](const char* name, const std::string& value) {
    std::snprintf(line, sizeof line, "| %-34s | %14s |\n", name, value.c_str());
    std::fputs(line, stdout);
  };
  auto fmt = [](const char* f, double v) {
    char b[64];
    std::snprintf(b, sizeof b, f, v);
    return std::string(b);
  };
  row("cycle, points/s", fmt("%.0f", cycle_rate));
  row("cycle, ms", fmt("%.1f", cycle_med * 1000));
  row("  normalise alone, ms", fmt("%.1f", median(normalise_s) * 1000));
  row("  CPU of our process in it, ms", fmt("%.1f", median(cycle_cpu_s) * 1000));
  row("raw insert, rows/s", fmt("%.0f", raw_rate));
  row("raw insert, ms", fmt("%.1f", raw_med * 1000));
  row("ratio cycle/raw (target >= 50 %)", fmt("%.1f %%", ratio * 100));
  if (!staged_s.empty()) {
    row("COPY+merge candidate, rows/s",
        fmt("%.0f", static_cast<double>(per_cycle) / median(staged_s)));
    row("COPY+merge / raw", fmt("%.1f %%", median(raw_s) / median(staged_s) * 100));
  }
  row("dedupe cycle (all duplicates), ms", fmt("%.1f", dedupe_ms));
  row("history rows returned", std::to_string(history_rows));
  row("history p50, ms (target < 5)", fmt("%.2f", h50));
  row("history p99, ms", fmt("%.2f", h99));
  row("same query via C API, p50 ms", fmt("%.2f", percentile(raw_history_ms, 50)));
  std::printf("\nratio >= 50 %%: %s; history p50 < 5 ms: %s\n", ratio >= 0.5 ? "met" : "MISSED",
              h50 < 5.0 ? "met" : "MISSED");
  std::fflush(stdout);

  if (!opt.json.empty()) {
    std::ofstream out(opt.json, std::ios::app);
    if (!out) throw std::runtime_error("cannot append to " + opt.json);
    auto list = [](const std::vector<double>& v, double scale) {
      std::ostringstream s;
      s << '[';
      for (std::size_t i = 0; i < v.size(); ++i) s << (i ? "," : "") << v[i] * scale;
      return s.str() + ']';
    };
    out << "{\"bench\":\"ingest\",\"backend\":\"" << backend_name << "\",\"host\":\""
        << jsonEscape(hostName()) << "\",\"time\":" << now << ",\"items\":" << opt.items
        << ",\"sources\":" << opt.sources << ",\"points_per_cycle\":" << per_cycle
        << ",\"runs\":" << opt.runs << ",\"cycle_ms\":" << list(cycle_s, 1000)
        << ",\"normalise_ms\":" << list(normalise_s, 1000)
        << ",\"cycle_cpu_ms\":" << list(cycle_cpu_s, 1000)
        << ",\"staged_ms\":" << list(staged_s, 1000)
        << ",\"raw_history_ms\":" << list(raw_history_ms, 1) << ",\"raw_ms\":" << list(raw_s, 1000)
        << ",\"raw_method\":\"" << jsonEscape(raw->method()) << "\""
        << ",\"cycle_points_per_s\":" << cycle_rate << ",\"raw_rows_per_s\":" << raw_rate
        << ",\"ratio\":" << ratio << ",\"dedupe_ms\":" << list(dedupe_s, 1000)
        << ",\"history_points\":" << opt.history_points << ",\"history_rows\":" << history_rows
        << ",\"history_p50_ms\":" << h50 << ",\"history_p99_ms\":" << h99
        << ",\"history_ms\":" << list(history_ms, 1) << "}\n";
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const Options opt = parseOptions(argc, argv);
  Scratch scratch;
  try {
    scratch = makeScratch(opt.database);
    const int rc = runBenchmark(opt, scratch);
    if (opt.keep) {
      std::cerr << "bench_ingest: --keep: left "
                << (scratch.sqlite_path.empty() ? "schema " + scratch.schema : scratch.sqlite_path)
                << " in place\n";
    } else {
      scratch.cleanup();
    }
    return rc;
  } catch (const std::exception& e) {
    std::cerr << "bench_ingest: " << e.what() << "\n";
    scratch.cleanup();
    return 1;
  }
}
