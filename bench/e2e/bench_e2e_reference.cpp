// bench_e2e_reference: the floors of e2e/run.sh's parse and store stages, on the same
// bytes and rows as the daemon's cycle, in the same run (bench/README.md, "e2e/run.sh").
//
//   raw parse   simdjson on-demand over the fake market's answer body, reading the fields
//               a Skinport row gives a price point (name, min_price, quantity,
//               updated_at), names copied out: no mapping, no quotes, no catalogue.
//   raw insert  those rows (names resolved to catalogue ids beforehand, untimed) inserted
//               into a copy of the daemon's own database after its run (its schema,
//               indexes and the cycles it stored), one prepared one-row INSERT per point in
//               one transaction, the store's pragmas (WAL, synchronous = NORMAL): no
//               rollups, no cycle log, no outlier flags.
//
//   bench_e2e_reference --body FILE --db FILE [--runs 5] [--source skinport]
//
// Prints `raw parse median=… ms min=… ms rows=N` and `raw insert median=… ms min=… ms
// rows=N`, medians of RUNS (each insert run at a new time, so every row is new).

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <simdjson.h>
#include <sqlite3.h>
#include <sstream>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

struct Row {
  std::string name;
  std::int64_t cents = 0;
  std::int64_t quantity = 0;
  std::int64_t time = 0;
};

double millis(Clock::duration d) { return std::chrono::duration<double, std::milli>(d).count(); }

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

std::vector<Row> parseRows(simdjson::ondemand::parser& parser,
                           const simdjson::padded_string& body) {
  std::vector<Row> rows;
  rows.reserve(32768);
  auto document = parser.iterate(body);
  for (auto element : document.get_array()) {
    auto object = element.get_object();
    Row row;
    for (auto field : object) {
      const std::string_view key = field.unescaped_key();
      if (key == "market_hash_name") {
        row.name = std::string(std::string_view(field.value().get_string()));
      } else if (key == "min_price") {
        auto value = field.value();
        if (value.is_null()) continue;
        row.cents = std::llround(double(value.get_double()) * 100);
      } else if (key == "quantity") {
        row.quantity = std::int64_t(field.value().get_int64());
      } else if (key == "updated_at") {
        row.time = std::int64_t(field.value().get_int64());
      }
    }
    rows.push_back(std::move(row));
  }
  return rows;
}

class Sqlite {
 public:
  explicit Sqlite(const std::string& path) {
    if (sqlite3_open_v2(path.c_str(), &db_, SQLITE_OPEN_READWRITE, nullptr) != SQLITE_OK) {
      fail("open");
    }
    exec("PRAGMA journal_mode = WAL");
    exec("PRAGMA synchronous = NORMAL");
    exec("PRAGMA foreign_keys = ON");
  }
  ~Sqlite() { sqlite3_close(db_); }
  Sqlite(const Sqlite&) = delete;
  Sqlite& operator=(const Sqlite&) = delete;

  void exec(const char* sql) {
    if (sqlite3_exec(db_, sql, nullptr, nullptr, nullptr) != SQLITE_OK) fail(sql);
  }
  std::int64_t scalar(const char* sql) {
    sqlite3_stmt* st = prepare(sql);
    std::int64_t value = sqlite3_step(st) == SQLITE_ROW ? sqlite3_column_int64(st, 0) : 0;
    sqlite3_finalize(st);
    return value;
  }
  std::unordered_map<std::string, std::int64_t> itemIds() {
    std::unordered_map<std::string, std::int64_t> ids;
    sqlite3_stmt* st = prepare("SELECT id, market_hash_name FROM items WHERE variant IS NULL");
    while (sqlite3_step(st) == SQLITE_ROW) {
      ids.emplace(reinterpret_cast<const char*>(sqlite3_column_text(st, 1)),
                  sqlite3_column_int64(st, 0));
    }
    sqlite3_finalize(st);
    return ids;
  }
  sqlite3_stmt* prepare(const char* sql) {
    sqlite3_stmt* st = nullptr;
    if (sqlite3_prepare_v2(db_, sql, -1, &st, nullptr) != SQLITE_OK) fail(sql);
    return st;
  }
  [[noreturn]] void fail(const std::string& what) {
    throw std::runtime_error("sqlite " + what + ": " + sqlite3_errmsg(db_));
  }

 private:
  sqlite3* db_ = nullptr;
};

struct Point {
  std::int64_t item_id, price, volume;
};

double insertRows(Sqlite& db, const std::vector<Point>& points, const std::string& source,
                  std::int64_t time) {
  const auto started = Clock::now();
  db.exec("BEGIN IMMEDIATE");
  sqlite3_stmt* st = db.prepare(
      "INSERT INTO price_points (item_id, source, time, price, volume) VALUES (?,?,?,?,?) "
      "ON CONFLICT DO NOTHING");
  for (const auto& point : points) {
    sqlite3_bind_int64(st, 1, point.item_id);
    sqlite3_bind_text(st, 2, source.data(), static_cast<int>(source.size()), SQLITE_STATIC);
    sqlite3_bind_int64(st, 3, time);
    sqlite3_bind_int64(st, 4, point.price);
    sqlite3_bind_int64(st, 5, point.volume);
    if (sqlite3_step(st) != SQLITE_DONE) {
      sqlite3_finalize(st);
      db.fail("insert");
    }
    sqlite3_reset(st);
  }
  sqlite3_finalize(st);
  db.exec("COMMIT");
  return millis(Clock::now() - started);
}

}  // namespace

int main(int argc, char** argv) {
  std::string body_path, db_path, source = "skinport";
  int runs = 5;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string flag = argv[i];
    if (flag == "--body")
      body_path = argv[i + 1];
    else if (flag == "--db")
      db_path = argv[i + 1];
    else if (flag == "--runs")
      runs = std::max(1, std::stoi(argv[i + 1]));
    else if (flag == "--source")
      source = argv[i + 1];
    else {
      std::cerr << "bench_e2e_reference: unknown option " << flag << "\n";
      return 2;
    }
  }
  if (body_path.empty() || db_path.empty()) {
    std::cerr << "usage: bench_e2e_reference --body FILE --db FILE [--runs 5] [--source NAME]\n";
    return 2;
  }
  try {
    const auto body = simdjson::padded_string::load(body_path).value();
    simdjson::ondemand::parser parser;
    std::vector<double> parse_ms;
    std::vector<Row> rows;
    for (int run = 0; run < runs; ++run) {
      const auto started = Clock::now();
      rows = parseRows(parser, body);
      parse_ms.push_back(millis(Clock::now() - started));
    }
    std::printf("raw parse median=%.1f ms min=%.1f ms rows=%zu bytes=%zu\n", median(parse_ms),
                *std::min_element(parse_ms.begin(), parse_ms.end()), rows.size(), body.size());

    Sqlite db(db_path);
    const auto ids = db.itemIds();
    std::vector<Point> points;
    for (const auto& row : rows) {
      const auto it = ids.find(row.name);
      if (it != ids.end() && row.cents > 0) points.push_back({it->second, row.cents, row.quantity});
    }
    // After every stored point, as a new cycle would be.
    std::int64_t time = db.scalar("SELECT COALESCE(MAX(time), 0) FROM price_points") + 60;
    std::vector<double> insert_ms;
    for (int run = 0; run < runs; ++run, time += 60) {
      insert_ms.push_back(insertRows(db, points, source, time));
    }
    std::printf("raw insert median=%.1f ms min=%.1f ms rows=%zu\n", median(insert_ms),
                *std::min_element(insert_ms.begin(), insert_ms.end()), points.size());
  } catch (const std::exception& error) {
    std::cerr << "bench_e2e_reference: " << error.what() << "\n";
    return 1;
  }
  return 0;
}
