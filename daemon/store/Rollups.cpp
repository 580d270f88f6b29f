#include "store/Rollups.hpp"

#include "store/BatchInsert.hpp"

#include <Poco/Data/Statement.h>

using Poco::Data::Keywords::bind;
using Poco::Data::Keywords::into;
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

void RollupFold::add(std::int64_t item_id, std::string_view source, std::int64_t time,
                     std::int64_t price, std::int64_t volume, bool outlier) {
  if (outlier) return;
  for (const auto level : kRollupLevels) {
    const std::int64_t start = bucketStart(time, rollupSeconds(level));
    auto& bar = bars(level)[Key{item_id, std::string(source), start}];
    bar.start = start;
    mergeBar(bar, barOf(start, time, price, volume));
  }
}

RollupFold::Bars RollupFold::takeEndedBy(RollupLevel level, std::int64_t time) {
  Bars ended;
  auto& all = bars(level);
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

bool stored(WriteTransaction& tx, const std::string& table, const RollupFold::Key& key) {
  std::vector<std::int64_t> found;
  std::int64_t item = std::get<0>(key);
  std::string source = std::get<1>(key);
  std::int64_t start = std::get<2>(key);
  tx.session() << tx.sql("SELECT 1 FROM " + table +
                         " WHERE item_id = ? AND source = ? AND start = ?"),
      into(found), bind(item), bind(source), bind(start), now;
  return !found.empty();
}

}  // namespace

std::size_t writeRollups(WriteTransaction& tx, RollupLevel level, const RollupFold::Bars& bars,
                         RollupWrite mode) {
  if (bars.empty()) return 0;
  const std::string table = rollupTable(level);
  BarColumns c;
  std::size_t samples = 0;
  for (const auto& [key, bar] : bars) {
    if (bar.samples == 0) continue;
    // Re-imported old history: a bar already stored is kept as it is (the first
    // observation of a bucket wins, as the first of a key does for raw points). A key
    // lookup each, and no conflict clause is then needed.
    if (mode == RollupWrite::kKeepExisting && stored(tx, table, key)) continue;
    c.push(key, bar);
    samples += static_cast<std::size_t>(bar.samples);
  }
  const std::string tail = mode == RollupWrite::kMerge ? rollupMergeClause(table) : "";
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
