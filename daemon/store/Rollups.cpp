#include "store/Rollups.hpp"

#include "store/BatchInsert.hpp"

#include <Poco/Data/SQLite/Utility.h>
#include <Poco/Data/Statement.h>

#include <optional>
#include <sqlite3.h>
#include <stdexcept>
#include <utility>

using Poco::Data::Keywords::bind;
using Poco::Data::Keywords::now;

namespace skinpulse::store {

const char* rollupTable(RollupLevel level) {
  return level == RollupLevel::kHour ? "price_rollups_hourly" : "price_rollups_daily";
}

std::string rollupMergeClause(std::string_view table) {
  // CASE rather than GREATEST/LEAST or MIN/MAX: one spelling on both backends. Every
  // right-hand side reads the stored row as it was before this update.
  const std::string t(table);
  const std::string earlier = "excluded.open_time < " + t + ".open_time";
  const std::string later = "excluded.close_time > " + t + ".close_time";
  return "ON CONFLICT (item_id, source, start) DO UPDATE SET "
         "open = CASE WHEN " +
         earlier + " THEN excluded.open ELSE " + t +
         ".open END, "
         "open_time = CASE WHEN " +
         earlier + " THEN excluded.open_time ELSE " + t +
         ".open_time END, "
         "close = CASE WHEN " +
         later + " THEN excluded.close ELSE " + t +
         ".close END, "
         "close_time = CASE WHEN " +
         later + " THEN excluded.close_time ELSE " + t +
         ".close_time END, "
         "high = CASE WHEN excluded.high > " +
         t + ".high THEN excluded.high ELSE " + t +
         ".high END, "
         "low = CASE WHEN excluded.low < " +
         t + ".low THEN excluded.low ELSE " + t +
         ".low END, "
         "volume = " +
         t +
         ".volume + excluded.volume, "
         "samples = " +
         t + ".samples + excluded.samples";
}

std::optional<OhlcvBar> reconcileBar(const OhlcvBar& stored, const OhlcvBar& incoming) {
  if (incoming.samples == 0) return std::nullopt;
  const bool disjoint =
      incoming.close_time < stored.open_time || incoming.open_time > stored.close_time;
  OhlcvBar result = stored;
  if (disjoint) {
    mergeBar(result, incoming);
  } else if (incoming.samples > stored.samples) {
    result = incoming;
    result.start = stored.start;
  } else {
    return std::nullopt;
  }
  return result;
}

std::string rollupReconcileClause(std::string_view table) {
  const std::string t(table);
  const std::string disjoint =
      "(excluded.close_time < " + t + ".open_time OR excluded.open_time > " + t + ".close_time)";
  const std::string replace = "excluded.samples > " + t + ".samples";
  // Disjoint: each column as rollupMergeClause folds it; overlapping: the incoming bar
  // (the WHERE has already kept the stored one unless the incoming one has more samples).
  const std::string earlier = "excluded.open_time < " + t + ".open_time";
  const std::string later = "excluded.close_time > " + t + ".close_time";
  auto column = [&](const std::string& name, const std::string& merged) {
    return name + " = CASE WHEN " + disjoint + " THEN " + merged + " ELSE excluded." + name +
           " END";
  };
  auto pick = [&](const std::string& when, const std::string& name) {
    return "CASE WHEN " + when + " THEN excluded." + name + " ELSE " + t + "." + name + " END";
  };
  return "ON CONFLICT (item_id, source, start) DO UPDATE SET " +
         column("open", pick(earlier, "open")) + ", " +
         column("open_time", pick(earlier, "open_time")) + ", " +
         column("close", pick(later, "close")) + ", " +
         column("close_time", pick(later, "close_time")) + ", " +
         column("high", pick("excluded.high > " + t + ".high", "high")) + ", " +
         column("low", pick("excluded.low < " + t + ".low", "low")) + ", " +
         column("volume", t + ".volume + excluded.volume") + ", " +
         column("samples", t + ".samples + excluded.samples") + " WHERE " + disjoint + " OR " +
         replace;
}

void RollupFold::add(std::int64_t item_id, std::string_view source, std::int64_t time,
                     std::int64_t price, std::int64_t volume, bool outlier) {
  if (outlier) return;
  for (const auto level : kRollupLevels) {
    const std::int64_t start = bucketStart(time, rollupSeconds(level));
    auto*& last = last_[level == RollupLevel::kHour ? 0 : 1];
    if (last == nullptr || std::get<0>(last->first) != item_id ||
        std::get<2>(last->first) != start || std::get<1>(last->first) != source) {
      last = &*mutableBars(level).try_emplace(Key{item_id, std::string(source), start}).first;
      last->second.start = start;
    }
    mergeBar(last->second, barOf(start, time, price, volume));
  }
}

RollupFold::Bars RollupFold::takeEndedBy(RollupLevel level, std::int64_t time) {
  forgetLast();  // the bars it points to may leave
  Bars ended;
  auto& all = mutableBars(level);
  const std::int64_t size = rollupSeconds(level);
  for (auto it = all.begin(); it != all.end();) {
    if (std::get<2>(it->first) + size <= time) {
      ended.insert(all.extract(it++));
    } else {
      ++it;
    }
  }
  return ended;
}

namespace {

struct BarColumns {
  std::vector<std::int64_t> item_id;
  std::vector<std::string> source;
  std::vector<std::int64_t> start, open, high, low, close, volume, samples, open_time, close_time;

  void push(const RollupFold::Key& key, const OhlcvBar& bar) {
    item_id.push_back(std::get<0>(key));
    source.push_back(std::get<1>(key));
    start.push_back(bar.start);
    open.push_back(bar.open);
    high.push_back(bar.high);
    low.push_back(bar.low);
    close.push_back(bar.close);
    volume.push_back(bar.volume);
    samples.push_back(bar.samples);
    open_time.push_back(bar.open_time);
    close_time.push_back(bar.close_time);
  }
};

// Every column from the row written: the bar was already reconciled in C++.
std::string rollupOverwriteClause() {
  return "ON CONFLICT (item_id, source, start) DO UPDATE SET open = excluded.open, high = "
         "excluded.high, low = excluded.low, close = excluded.close, volume = excluded.volume, "
         "samples = excluded.samples, open_time = excluded.open_time, close_time = "
         "excluded.close_time";
}

constexpr const char* kBarColumns =
    " (item_id, source, start, open, high, low, close, volume, samples, open_time, close_time)";

// SQLite: the bars through SQLite's own API, 64 rows per prepared statement (a cycle
// touches two bars per new point; Poco's per-row binding doubled the store stage).
class SqliteBarWriter {
 public:
  SqliteBarWriter(sqlite3* db, const std::string& table, std::string conflict)
      : db_(db), table_(table), conflict_(std::move(conflict)) {}
  ~SqliteBarWriter() {
    sqlite3_finalize(many_);
    sqlite3_finalize(one_);
  }
  SqliteBarWriter(const SqliteBarWriter&) = delete;
  SqliteBarWriter& operator=(const SqliteBarWriter&) = delete;

  void write(const RollupFold::Bars& bars) {
    std::vector<std::pair<const RollupFold::Key*, const OhlcvBar*>> rows;
    rows.reserve(bars.size());
    for (const auto& [key, bar] : bars) {
      if (bar.samples > 0) rows.emplace_back(&key, &bar);
    }
    std::size_t i = 0;
    if (rows.size() >= kRows) many_ = prepare(kRows);
    for (; i + kRows <= rows.size(); i += kRows) {
      for (int row = 0; row < kRows; ++row) bind(many_, row, rows[i + row]);
      step(many_);
    }
    if (i < rows.size()) one_ = prepare(1);
    for (; i < rows.size(); ++i) {
      bind(one_, 0, rows[i]);
      step(one_);
    }
  }

 private:
  static constexpr int kRows = 64;

  sqlite3_stmt* prepare(int rows) {
    std::string sql = "INSERT INTO " + table_ + kBarColumns + " VALUES ";
    for (int i = 0; i < rows; ++i)
      sql += i == 0 ? "(?,?,?,?,?,?,?,?,?,?,?)" : ",(?,?,?,?,?,?,?,?,?,?,?)";
    sql += " " + conflict_;
    sqlite3_stmt* statement = nullptr;
    if (sqlite3_prepare_v2(db_, sql.c_str(), -1, &statement, nullptr) != SQLITE_OK) fail();
    return statement;
  }
  static void bind(sqlite3_stmt* statement, int row,
                   const std::pair<const RollupFold::Key*, const OhlcvBar*>& entry) {
    const int base = row * 11;
    const auto& [item, source, start] = *entry.first;
    const OhlcvBar& bar = *entry.second;
    sqlite3_bind_int64(statement, base + 1, item);
    sqlite3_bind_text(statement, base + 2, source.data(), static_cast<int>(source.size()),
                      SQLITE_STATIC);
    const std::int64_t values[] = {start,      bar.open,    bar.high,      bar.low,       bar.close,
                                   bar.volume, bar.samples, bar.open_time, bar.close_time};
    for (int v = 0; v < 9; ++v) sqlite3_bind_int64(statement, base + 3 + v, values[v]);
  }
  void step(sqlite3_stmt* statement) {
    const int rc = sqlite3_step(statement);
    sqlite3_reset(statement);
    if (rc != SQLITE_DONE) fail();
  }
  [[noreturn]] void fail() {
    throw std::runtime_error(std::string("SQLite: ") + sqlite3_errmsg(db_));
  }

  sqlite3* db_;
  const std::string table_;
  const std::string conflict_;
  sqlite3_stmt* many_ = nullptr;
  sqlite3_stmt* one_ = nullptr;
};

// SQLite: the stored bar of a key through one prepared statement, stepped once per bar.
// A backfill of old history looks up every bar it folded; through Poco each lookup
// parsed its statement again, which made that backfill four times slower than its
// inserts (bench/scale).
class SqliteBarReader {
 public:
  SqliteBarReader(sqlite3* db, const std::string& table) : db_(db) {
    const std::string sql =
        "SELECT open, high, low, close, volume, samples, open_time, close_time FROM " + table +
        " WHERE item_id = ? AND source = ? AND start = ?";
    if (sqlite3_prepare_v2(db_, sql.c_str(), -1, &statement_, nullptr) != SQLITE_OK) {
      throw std::runtime_error(std::string("SQLite: ") + sqlite3_errmsg(db_));
    }
  }
  ~SqliteBarReader() { sqlite3_finalize(statement_); }
  SqliteBarReader(const SqliteBarReader&) = delete;
  SqliteBarReader& operator=(const SqliteBarReader&) = delete;

  std::optional<OhlcvBar> find(const RollupFold::Key& key) {
    const auto& [item, source, start] = key;
    sqlite3_bind_int64(statement_, 1, item);
    sqlite3_bind_text(statement_, 2, source.data(), static_cast<int>(source.size()), SQLITE_STATIC);
    sqlite3_bind_int64(statement_, 3, start);
    const int rc = sqlite3_step(statement_);
    std::optional<OhlcvBar> bar;
    if (rc == SQLITE_ROW) {
      const auto column = [this](int i) { return sqlite3_column_int64(statement_, i); };
      bar = OhlcvBar{start,     column(0), column(1), column(2), column(3),
                     column(4), column(5), column(6), column(7)};
    }
    sqlite3_reset(statement_);
    if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
      throw std::runtime_error(std::string("SQLite: ") + sqlite3_errmsg(db_));
    }
    return bar;
  }

 private:
  sqlite3* db_;
  sqlite3_stmt* statement_ = nullptr;
};

}  // namespace

std::size_t writeRollups(WriteTransaction& tx, RollupLevel level, const RollupFold::Bars& bars,
                         RollupWrite mode) {
  if (bars.empty()) return 0;
  const std::string table = rollupTable(level);
  std::size_t samples = 0;
  RollupFold::Bars reconciled;
  if (mode == RollupWrite::kReconcile) {
    // Old history on SQLite: each bar against the stored one in C++ (reconcileBar), one
    // prepared key lookup each. PostgreSQL reconciles in SQL (rollupReconcileClause, in
    // the backfill's COPY stream) and never comes here.
    if (tx.backend() != Backend::kSqlite) {
      throw std::logic_error("writeRollups: reconcile is SQLite's; PostgreSQL does it in SQL");
    }
    SqliteBarReader stored_bars(Poco::Data::SQLite::Utility::dbHandle(tx.session()), table);
    for (const auto& [key, bar] : bars) {
      if (bar.samples == 0) continue;
      const auto stored = stored_bars.find(key);
      if (!stored) {
        reconciled.emplace(key, bar);
        samples += static_cast<std::size_t>(bar.samples);
      } else if (const auto result = reconcileBar(*stored, bar)) {
        reconciled.emplace(key, *result);
        samples += static_cast<std::size_t>(result->samples - stored->samples);
      }
    }
  } else {
    for (const auto& [key, bar] : bars) samples += static_cast<std::size_t>(bar.samples);
  }
  const RollupFold::Bars& rows = mode == RollupWrite::kReconcile ? reconciled : bars;
  const std::string tail =
      mode == RollupWrite::kMerge ? rollupMergeClause(table) : rollupOverwriteClause();
  if (tx.backend() == Backend::kSqlite) {
    SqliteBarWriter writer(Poco::Data::SQLite::Utility::dbHandle(tx.session()), table, tail);
    writer.write(rows);
    return samples;
  }
  BarColumns c;
  for (const auto& [key, bar] : rows) {
    if (bar.samples > 0) c.push(key, bar);
  }
  insertColumns(tx.session(), tx.backend(),
                "INSERT INTO " + table +
                    " (item_id, source, start, open, high, low, close, volume, samples, "
                    "open_time, close_time)",
                tail, c.item_id, c.source, c.start, c.open, c.high, c.low, c.close, c.volume,
                c.samples, c.open_time, c.close_time);
  return samples;
}

std::size_t writeRollups(WriteTransaction& tx, const RollupFold& fold, RollupWrite mode) {
  const std::size_t hourly =
      writeRollups(tx, RollupLevel::kHour, fold.bars(RollupLevel::kHour), mode);
  writeRollups(tx, RollupLevel::kDay, fold.bars(RollupLevel::kDay), mode);
  return hourly;
}

}  // namespace skinpulse::store
