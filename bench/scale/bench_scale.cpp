// bench_scale: a year of price history through the daemon's store, beside a raw bulk insert
// of the same rows into a second database of the same schema, then the daemon's read paths
// and a retention pass on the result (bench/README.md, "scale/run.sh"; the method and the
// shape of the stream: bench/scale/README.md).
//
//   bench_scale --database sqlite|postgresql://... --share DIR [--points N] [--quick]
//               [--items N] [--history-days 365] [--raw-days 30] [--backfill-days 30]
//               [--reads 200] [--scratch DIR] [--json FILE] [--keep]

#include "BenchBackend.hpp"
#include "PointStream.hpp"
#include "catalog/CatalogSeeder.hpp"
#include "common/Time.hpp"
#include "ingest/Retention.hpp"
#include "store/Database.hpp"
#include "store/Ohlcv.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <sys/resource.h>
#include <vector>

namespace {

using namespace skinpulse;
using Clock = std::chrono::steady_clock;

struct Options {
  std::string database;
  std::string share;
  std::size_t points = 0;  ///< 0: the backend's default
  std::size_t items = 0;   ///< 0: derived from points
  int history_days = 365;
  int raw_days = 30;
  int backfill_days = 30;
  std::size_t reads = 200;
  std::string scratch;
  std::string json;
  bool quick = false;
  bool keep = false;
};

constexpr std::size_t kPostgresPoints = 100'000'000, kSqlitePoints = 20'000'000;
constexpr std::size_t kQuickPoints = 2'000'000;
constexpr std::size_t kBackfillChunk = 65'536;  ///< points per BackfillWriter::add()
constexpr std::size_t kHotItems = 50;
constexpr std::int64_t kDay = 86400;

[[noreturn]] void usage(const std::string& problem) {
  std::cerr << "bench_scale: " << problem
            << "\nusage: bench_scale --database sqlite|postgresql://... --share DIR [--points N]"
               " [--quick] [--items N] [--history-days 365] [--raw-days 30] [--backfill-days 30]"
               " [--reads 200] [--scratch DIR] [--json FILE] [--keep]\n";
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
        std::size_t used = 0;
        const long long n = std::stoll(v, &used);
        if (n <= 0 || used != v.size()) throw std::invalid_argument(v);
        return static_cast<std::size_t>(n);
      } catch (const std::exception&) {
        usage(arg + " wants a positive integer, not '" + v + "'");
      }
    };
    if (arg == "--database")
      o.database = value();
    else if (arg == "--share")
      o.share = value();
    else if (arg == "--points")
      o.points = count();
    else if (arg == "--items")
      o.items = count();
    else if (arg == "--history-days")
      o.history_days = static_cast<int>(count());
    else if (arg == "--raw-days")
      o.raw_days = static_cast<int>(count());
    else if (arg == "--backfill-days")
      o.backfill_days = static_cast<int>(count());
    else if (arg == "--reads")
      o.reads = count();
    else if (arg == "--scratch")
      o.scratch = value();
    else if (arg == "--json")
      o.json = value();
    else if (arg == "--quick")
      o.quick = true;
    else if (arg == "--keep")
      o.keep = true;
    else if (arg == "-h" || arg == "--help")
      usage("help");
    else
      usage("unknown option " + arg);
  }
  if (o.database.empty()) usage("--database is required");
  if (o.share.empty()) usage("--share is required");
  if (o.raw_days + 2 > o.history_days) usage("--history-days must exceed --raw-days by 2 or more");
  if (o.raw_days < 8)
    usage("--raw-days must be 8 or more (the 7d history is read from raw points)");
  if (o.scratch.empty()) {
    const char* tmp = std::getenv("TMPDIR");
    o.scratch = tmp && *tmp ? tmp : "/tmp";
  }
  return o;
}

double seconds(Clock::duration d) { return std::chrono::duration<double>(d).count(); }

// Nearest-rank percentile.
double percentile(std::vector<double> v, double p) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  auto rank = static_cast<std::size_t>(std::ceil(p / 100.0 * static_cast<double>(v.size())));
  rank = std::clamp<std::size_t>(rank, 1, v.size());
  return v[rank - 1];
}

double peakRssMiB() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_maxrss) / 1024.0;  // KiB on Linux
}

std::string fmt(const char* format, double v) {
  char b[64];
  std::snprintf(b, sizeof b, format, v);
  return b;
}

/// Times one write on the store and the same rows on the reference, in alternating order
/// so drift (autovacuum, the page cache, other work on the box) hits both.
struct WriteTimer {
  double store_s = 0, reference_s = 0;
  std::size_t rows = 0;
  std::size_t turn = 0;
  template <typename StoreFn, typename ReferenceFn>
  void both(StoreFn&& store, ReferenceFn&& reference) {
    auto timed = [](auto&& fn) {
      const auto t0 = Clock::now();
      fn();
      return seconds(Clock::now() - t0);
    };
    if (turn++ % 2 == 0) {
      store_s += timed(store);
      reference_s += timed(reference);
    } else {
      reference_s += timed(reference);
      store_s += timed(store);
    }
  }
};

struct ReadStats {
  std::vector<double> ms;
  std::size_t rows = 0;  ///< rows or bars returned, summed
  std::optional<std::string> unavailable;
  double p50() const { return percentile(ms, 50); }
  double p99() const { return percentile(ms, 99); }
};

/// A backfill writer that sends points older than `raw_from` to the rollups only, when this
/// build's store has the cut-off (issue 30: `openBackfill(raw_from)`); otherwise every point
/// is kept raw, and the report says so. A template, so the test compiles on either API.
template <typename Store>
std::unique_ptr<store::PriceStore::BackfillWriter> openBackfillFrom(Store& prices,
                                                                    std::int64_t raw_from,
                                                                    bool& cut) {
  if constexpr (requires { prices.openBackfill(raw_from); }) {
    cut = true;
    return prices.openBackfill(raw_from);
  } else {
    cut = false;
    return prices.openBackfill();
  }
}

bool notImplemented(const std::logic_error& e) {
  return std::string(e.what()).find("not implemented") != std::string::npos;
}

class ScaleBench {
 public:
  ScaleBench(const Options& options, bench::BenchBackend& backend)
      : opt_(options), backend_(backend) {}

  int run();

 private:
  void prepare();
  void writeBackfills();
  void writeCycles();
  void readHistory();
  void readCandles();
  void retentionPass();
  void report();

  std::size_t expectedHistory(std::size_t item, std::int64_t since) const;
  std::vector<store::OhlcvBar> expectedDailyBars(std::size_t item, std::int64_t from) const;
  std::string describeBarDifference(const std::vector<store::OhlcvBar>& got,
                                    const std::vector<store::OhlcvBar>& want) const;
  std::vector<std::size_t> pickCold(std::size_t n, std::mt19937_64& rng) const;

  const Options& opt_;
  bench::BenchBackend& backend_;
  std::unique_ptr<store::Database> db_;
  std::unique_ptr<bench::RawInserter> reference_;
  std::unique_ptr<bench::PointStream> stream_;
  std::size_t points_ = 0;
  std::int64_t now_ = 0;
  std::int64_t live_from_ = 0;     ///< the cycles start here: a UTC midnight, raw_days ago
  std::int64_t backfill_to_ = 0;   ///< backfilled history ends here (= live_from_)
  bool backfill_cut_ = false;      ///< the store's backfill has the raw cut-off
  std::size_t candle_source_ = 0;  ///< the source the 1y candles are read for
  std::vector<std::size_t> hot_;   ///< item indexes written by the last cycles
  std::size_t last_poll_source_ = 0;

  WriteTimer backfill_, cycles_;
  std::size_t backfill_points_ = 0, backfill_stored_ = 0, backfills_ = 0;
  std::size_t cycle_points_ = 0, cycle_count_ = 0;
  double settle_s_ = 0;
  bench::TableSizes store_sizes_, reference_sizes_;
  ReadStats history_hot_, history_cold_, candles_hot_, candles_cold_;
  std::optional<double> retention_s_;
  std::string retention_note_;
  std::size_t retention_deleted_ = 0;
  double wall_s_ = 0;
};

void ScaleBench::prepare() {
  points_ = opt_.points  ? opt_.points
            : opt_.quick ? kQuickPoints
                         : (backend_.name() == "sqlite" ? kSqlitePoints : kPostgresPoints);
  const std::string catalogue = opt_.share + "/catalog/items.jsonl";
  // Both databases through the daemon's own migrations and catalogue seeding.
  {
    auto reference = store::openDatabase(backend_.referenceUrl(), opt_.share + "/sql");
    catalog::seedCatalog(reference->catalog(), catalogue);
  }
  db_ = store::openDatabase(backend_.storeUrl(), opt_.share + "/sql");
  catalog::seedCatalog(db_->catalog(), catalogue);
  reference_ = backend_.openReference();

  // Catalogue-like ids: the benchmark's items spread evenly over the seeded catalogue.
  const auto records = db_->catalog().itemNames();
  const std::size_t n =
      opt_.items ? opt_.items : std::clamp<std::size_t>(points_ / 10000, 500, 10000);
  if (n > records.size())
    throw std::runtime_error("--items " + std::to_string(n) + " is more than the catalogue's " +
                             std::to_string(records.size()));
  std::vector<std::int64_t> ids;
  for (std::size_t k = 0; k < n; ++k) ids.push_back(records[k * records.size() / n].id);

  now_ = time::nowSeconds();
  stream_ = std::make_unique<bench::PointStream>(std::move(ids), points_, now_, opt_.history_days);
  // The backfill's raw cut-off as the daemon sets it (ingest::BackfillOptions): the start
  // of the UTC day `raw_days` ago. Older history is backfilled (rollups only); from there
  // on, the cycles store raw, so the first day of the cycles is a whole UTC day (one
  // partition) and nothing backfilled is kept raw.
  live_from_ = (now_ - std::int64_t{opt_.raw_days} * kDay) / kDay * kDay;
  backfill_to_ = live_from_;
  // The day partitions (PostgreSQL) of the raw retention exist, as in a daemon whose
  // retention pass has run: the cycles land in their days, not in DEFAULT, and the timed
  // pass below is the drop of one day. Nothing is dropped here (nothing is older).
  db_->prices().maintainPartitions(now_, live_from_, live_from_);

  std::cerr << "bench_scale " << backend_.name() << ": ~" << points_ << " points, "
            << stream_->items().size() << " items, " << stream_->sources().size()
            << " sources, intervals x" << fmt("%.1f", stream_->stretch()) << " ("
            << stream_->count(stream_->start(), backfill_to_) << " backfilled over "
            << opt_.history_days - opt_.raw_days << " days, " << stream_->count(live_from_, now_)
            << " in cycles over the last " << (now_ - live_from_) / kDay << " days)\n";
}

void ScaleBench::writeBackfills() {
  // History older than the raw retention arrives as backfills (an import of an export),
  // about BACKFILL_DAYS of it per transaction, in time order.
  auto& prices = db_->prices();
  std::vector<store::PricePoint> chunk;
  chunk.reserve(kBackfillChunk + stream_->items().size());
  const std::int64_t step = std::int64_t{opt_.backfill_days} * kDay;
  // Each backfill ends at a UTC midnight, as monthly export files do, so no daily bar is
  // split over two backfills: a backfill older than the raw points leaves a bar already
  // stored as it is (a re-import must not count its points twice).
  for (std::int64_t from = stream_->start(), to = 0; from < backfill_to_; from = to) {
    to = std::min((from + step) / kDay * kDay, backfill_to_);
    std::unique_ptr<store::PriceStore::BackfillWriter> writer;
    backfill_.both([&] { writer = openBackfillFrom(prices, live_from_, backfill_cut_); },
                   [&] { reference_->begin(); });
    auto flush = [&] {
      if (chunk.empty()) return;
      backfill_.both([&] { writer->add(chunk); }, [&] { reference_->insert(chunk); });
      backfill_points_ += chunk.size();
      chunk.clear();
    };
    for (const auto& poll : stream_->polls(from, to)) {
      stream_->append(poll, chunk);
      if (chunk.size() >= kBackfillChunk) flush();
    }
    flush();
    backfill_.both([&] { backfill_stored_ += writer->finish(); }, [&] { reference_->commit(); });
    ++backfills_;
    std::cerr << "  backfill " << backfills_ << ": " << backfill_points_ << " points so far, store "
              << fmt("%.1f", backfill_.store_s) << " s, reference "
              << fmt("%.1f", backfill_.reference_s) << " s\n";
  }
}

void ScaleBench::writeCycles() {
  // The last days as the daemon stores them: one insert() per poll.
  auto& prices = db_->prices();
  const auto polls = stream_->polls(live_from_, now_);
  std::vector<store::PricePoint> points;
  std::size_t next_report = polls.size() / 10;
  for (std::size_t i = 0; i < polls.size(); ++i) {
    points.clear();
    stream_->append(polls[i], points);
    if (points.empty()) continue;
    std::size_t stored = 0;
    cycles_.both([&] { stored = prices.insert(points); },
                 [&] {
                   reference_->begin();
                   reference_->insert(points);
                   reference_->commit();
                 });
    if (stored != points.size())
      throw std::runtime_error("a cycle stored " + std::to_string(stored) + " of " +
                               std::to_string(points.size()) + " new points");
    cycle_points_ += points.size();
    ++cycle_count_;
    last_poll_source_ = polls[i].source;
    if (i + 1 >= next_report) {
      std::cerr << "  cycles: " << i + 1 << "/" << polls.size() << ", " << cycle_points_
                << " points, store " << fmt("%.1f", cycles_.store_s) << " s, reference "
                << fmt("%.1f", cycles_.reference_s) << " s\n";
      next_report += std::max<std::size_t>(1, polls.size() / 10);
    }
  }
  if (cycle_count_ == 0) throw std::runtime_error("the raw window holds no poll; raise --points");
}

std::size_t ScaleBench::expectedHistory(std::size_t item, std::int64_t since) const {
  std::size_t n = 0;
  for (std::size_t s = 0; s < stream_->sources().size(); ++s)
    if (stream_->lists(item, s)) n += stream_->pollsOf(s, since + 1, now_).size();
  return n;
}

std::vector<store::OhlcvBar> ScaleBench::expectedDailyBars(std::size_t item,
                                                           std::int64_t from) const {
  // The fold of store/Ohlcv over every point of the series on a day starting at or after
  // `from`, outliers left out, the backfilled ones included (they reach the rollups even
  // when too old to be kept raw).
  std::map<std::int64_t, store::OhlcvBar> bars;
  for (const auto& poll : stream_->pollsOf(candle_source_, stream_->start(), now_)) {
    const std::int64_t start = store::bucketStart(poll.time, kDay);
    if (start < from) continue;
    const auto p = stream_->point(poll, item);
    if (p.outlier) continue;
    const auto bar = store::barOf(start, p.time, p.price, p.volume);
    if (auto [at, inserted] = bars.emplace(start, bar); !inserted) store::mergeBar(at->second, bar);
  }
  std::vector<store::OhlcvBar> out;
  for (auto& [start, bar] : bars) out.push_back(bar);
  return out;
}

std::string ScaleBench::describeBarDifference(const std::vector<store::OhlcvBar>& got,
                                              const std::vector<store::OhlcvBar>& want) const {
  // The first days that differ, as days before now and which path wrote them.
  std::map<std::int64_t, std::pair<const store::OhlcvBar*, const store::OhlcvBar*>> days;
  for (const auto& bar : got) days[bar.start].first = &bar;
  for (const auto& bar : want) days[bar.start].second = &bar;
  std::string out;
  int listed = 0;
  for (const auto& [start, pair] : days) {
    const auto* g = pair.first;
    const auto* w = pair.second;
    if (g && w && *g == *w) continue;
    if (listed++ == 5) break;
    out += "; day " + std::to_string(start) + " (" + std::to_string((now_ - start) / kDay) +
           " days ago, " + (start < live_from_ ? "backfilled" : "cycles") + "): store " +
           (g ? std::to_string(g->samples) + " samples, open " + std::to_string(g->open) +
                    ", close " + std::to_string(g->close)
              : std::string("no bar")) +
           ", stream " +
           (w ? std::to_string(w->samples) + " samples, open " + std::to_string(w->open) +
                    ", close " + std::to_string(w->close)
              : std::string("no bar"));
  }
  return out;
}

std::vector<std::size_t> ScaleBench::pickCold(std::size_t n, std::mt19937_64& rng) const {
  // Random items, each read once, none of the hot ones: their rows are not in the store's
  // caches unless an earlier read of another kind brought them in.
  std::vector<std::size_t> pool;
  for (std::size_t i = 0; i < stream_->items().size(); ++i)
    if (std::find(hot_.begin(), hot_.end(), i) == hot_.end()) pool.push_back(i);
  std::shuffle(pool.begin(), pool.end(), rng);
  std::vector<std::size_t> out;
  for (std::size_t k = 0; k < n && !pool.empty(); ++k) out.push_back(pool[k % pool.size()]);
  return out;
}

void ScaleBench::readHistory() {
  auto& prices = db_->prices();
  const std::int64_t since = now_ - 7 * kDay;
  auto timedRead = [&](std::size_t item, ReadStats& stats) {
    const auto t0 = Clock::now();
    const auto rows = prices.history(stream_->items()[item], since, std::nullopt);
    stats.ms.push_back(seconds(Clock::now() - t0) * 1000);
    stats.rows += rows.size();
    const std::size_t expected = expectedHistory(item, since);
    if (rows.size() != expected)
      throw std::runtime_error("history of item " + std::to_string(stream_->items()[item]) +
                               " returned " + std::to_string(rows.size()) +
                               " points, the stream holds " + std::to_string(expected));
  };
  std::mt19937_64 rng(30);
  for (std::size_t item : hot_)
    prices.history(stream_->items()[item], since, std::nullopt);  // warm
  for (std::size_t k = 0; k < opt_.reads; ++k) timedRead(hot_[rng() % hot_.size()], history_hot_);
  for (std::size_t item : pickCold(opt_.reads, rng)) timedRead(item, history_cold_);
}

void ScaleBench::readCandles() {
  // 1y candles at 1d: the daily rollups of one series from now − 1 year (what the candles
  // endpoint reads for window=1y, interval=1d).
  auto& prices = db_->prices();
  const std::string& source = stream_->sources()[candle_source_].name;
  const std::int64_t from = now_ - 365 * kDay;
  std::size_t verified = 0;
  auto timedRead = [&](std::size_t item, ReadStats& stats) {
    const auto t0 = Clock::now();
    const auto bars =
        prices.rollups(stream_->items()[item], source, store::RollupLevel::kDay, from);
    stats.ms.push_back(seconds(Clock::now() - t0) * 1000);
    stats.rows += bars.size();
    if (verified++ < 20) {  // checked on a sample: every bar is the fold of the stream's points
      const auto expected = expectedDailyBars(item, from);
      if (bars != expected)
        throw std::runtime_error("daily rollups of item " + std::to_string(stream_->items()[item]) +
                                 " (" + source + ") differ from the stream's points" +
                                 describeBarDifference(bars, expected));
    }
  };
  std::mt19937_64 rng(31);
  try {
    for (std::size_t item : hot_)
      prices.rollups(stream_->items()[item], source, store::RollupLevel::kDay, from);  // warm
  } catch (const std::logic_error& e) {
    if (!notImplemented(e)) throw;
    candles_hot_.unavailable = candles_cold_.unavailable = e.what();
    std::cerr << "  1y candles: not measured, this build's store says: " << e.what() << "\n";
    return;
  }
  for (std::size_t k = 0; k < opt_.reads; ++k) timedRead(hot_[rng() % hot_.size()], candles_hot_);
  for (std::size_t item : pickCold(opt_.reads, rng)) timedRead(item, candles_cold_);
}

void ScaleBench::retentionPass() {
  // One day leaves the raw retention: the pass the daemon's Retention runs, with `now` one
  // day on, so exactly the first whole day of the cycles (PostgreSQL: its partition) is due.
  ingest::Retention::Options options;
  options.retention_days = opt_.raw_days;
  options.pause = std::chrono::milliseconds(0);  // the daemon sleeps 50 ms between batches
  ingest::Retention retention(db_->prices(), options);
  const std::int64_t pass_now = live_from_ + kDay + std::int64_t{opt_.raw_days} * kDay;
  const std::int64_t cutoff = pass_now - std::int64_t{opt_.raw_days} * kDay;
  const std::int64_t keep_reference_at = pass_now - options.reference_window_seconds;
  try {
    const auto t0 = Clock::now();
    retention_deleted_ = retention.prune(pass_now);
    retention_s_ = seconds(Clock::now() - t0);
  } catch (const std::logic_error& e) {
    if (!notImplemented(e)) throw;
    retention_note_ = e.what();
    std::cerr << "  retention: not measured, this build's store says: " << e.what() << "\n";
    return;
  }
  // What must be left of the day: only each series' reference point (§3.2 p_ref), the
  // newest at or before keep_reference_at, when the series has nothing newer there.
  for (std::size_t item : hot_) {
    const auto rows = db_->prices().history(stream_->items()[item], live_from_ - 1, std::nullopt);
    std::map<std::string, std::int64_t> newest_kept;  // source → newest time <= keep_reference_at
    for (const auto& p : rows)
      if (p.time <= keep_reference_at)
        newest_kept[p.source] = std::max(newest_kept[p.source], p.time);
    for (const auto& p : rows)
      if (p.time < cutoff && p.time != newest_kept[p.source])
        throw std::runtime_error("retention left point (" + std::to_string(p.item_id) + ", " +
                                 p.source + ", " + std::to_string(p.time) + ") before the cut-off");
  }
}

void ScaleBench::report() {
  const bench::TableSizes& s = store_sizes_;
  const bench::TableSizes& r = reference_sizes_;
  const std::size_t all_points = backfill_points_ + cycle_points_;
  const double store_rate = static_cast<double>(all_points) / (backfill_.store_s + cycles_.store_s);
  const double ref_rate =
      static_cast<double>(all_points) / (backfill_.reference_s + cycles_.reference_s);
  const double ratio = store_rate / ref_rate;
  auto rate = [](std::size_t n, double secs) {
    return secs > 0 ? static_cast<double>(n) / secs : 0.0;
  };
  const bool is_pg = backend_.name() == "postgresql";
  const std::size_t live_expected = stream_->count(live_from_, now_);

  std::printf(
      "\nbench_scale %s: %zu points (%zu backfilled in %zu backfills, %zu in %zu cycles),"
      " %zu items, %zu sources, intervals x%.1f\n",
      backend_.name().c_str(), all_points, backfill_points_, backfills_, cycle_points_,
      cycle_count_, stream_->items().size(), stream_->sources().size(), stream_->stretch());
  std::printf("reference: %s\n\n", reference_->method().c_str());
  std::printf("| measure | value | target |\n|---|---:|---|\n");
  auto row = [](const std::string& name, const std::string& value, const std::string& target) {
    std::printf("| %s | %s | %s |\n", name.c_str(), value.c_str(), target.c_str());
  };
  auto verdict = [](bool met) { return std::string(met ? "met" : "MISSED"); };
  row("store, all writes, points/s", fmt("%.0f", store_rate), "");
  row(std::string("reference (raw ") + (is_pg ? "COPY" : "INSERT") + "), rows/s",
      fmt("%.0f", ref_rate), "");
  row("**store / reference**", fmt("**%.1f %%**", ratio * 100), "≥ 50 %: " + verdict(ratio >= 0.5));
  row("  backfills: store / reference, points/s",
      fmt("%.0f", rate(backfill_points_, backfill_.store_s)) + " / " +
          fmt("%.0f", rate(backfill_points_, backfill_.reference_s)),
      fmt("%.1f %%", 100 * backfill_.reference_s / std::max(1e-9, backfill_.store_s)));
  row("  cycles: store / reference, points/s",
      fmt("%.0f", rate(cycle_points_, cycles_.store_s)) + " / " +
          fmt("%.0f", rate(cycle_points_, cycles_.reference_s)),
      fmt("%.1f %%", 100 * cycles_.reference_s / std::max(1e-9, cycles_.store_s)));
  auto reads = [&](const std::string& name, const ReadStats& stats, double target_ms) {
    if (stats.unavailable) {
      row(name, "not measured", "store: " + *stats.unavailable);
      return;
    }
    const std::string avg =
        fmt("%.0f", static_cast<double>(stats.rows) /
                        static_cast<double>(std::max<std::size_t>(1, stats.ms.size())));
    row(name + ", p50 / p99 ms (" + avg + " rows avg)",
        fmt("%.2f", stats.p50()) + " / " + fmt("%.2f", stats.p99()),
        target_ms > 0
            ? "p99 ≤ " + fmt("%.0f", target_ms) + " ms: " + verdict(stats.p99() <= target_ms)
            : "");
  };
  reads("7d history, hot", history_hot_, 0);
  reads("7d history, cold", history_cold_, 0);
  reads("1y candles (daily rollups), hot", candles_hot_, 10);
  reads("1y candles (daily rollups), cold", candles_cold_, 10);
  if (retention_s_) {
    row("retention pass of one day, s (" + std::to_string(retention_deleted_) + " points)",
        fmt("%.3f", *retention_s_), "≤ 1 s: " + verdict(*retention_s_ <= 1.0));
  } else {
    row("retention pass of one day", "not measured", "store: " + retention_note_);
  }
  auto perRow = [](std::int64_t bytes, std::int64_t rows) {
    return rows > 0 ? fmt("%.1f", static_cast<double>(bytes) / static_cast<double>(rows)) : "-";
  };
  row("raw points kept (the cycles wrote " + std::to_string(live_expected) + ")",
      std::to_string(s.raw_rows),
      backfill_cut_ ? "backfill: openBackfill(raw_from), older points to the rollups only"
                    : "backfill: this store has no raw cut-off, every point is kept raw");
  row(std::string("bytes per raw point, store") +
          (is_pg ? " (" + std::to_string(s.partitions) + " partitions)" : ""),
      perRow(s.raw_bytes, s.raw_rows), "");
  row("bytes per raw point, reference", perRow(r.raw_bytes, r.raw_rows), "");
  if (s.hourly_rows >= 0)
    row("hourly bars / bytes per bar",
        std::to_string(s.hourly_rows) + " / " + perRow(s.hourly_bytes, s.hourly_rows), "");
  if (s.daily_rows >= 0)
    row("daily bars / bytes per bar",
        std::to_string(s.daily_rows) + " / " + perRow(s.daily_bytes, s.daily_rows), "");
  if (s.file_bytes >= 0)
    row("database file / points written, bytes",
        perRow(s.file_bytes, static_cast<std::int64_t>(all_points)), "");
  row(is_pg ? "VACUUM ANALYZE after the load, s" : "WAL checkpoint after the load, s",
      fmt("%.1f", settle_s_), "");
  row("peak RSS of the benchmark process, MiB", fmt("%.0f", peakRssMiB()), "");
  row("wall time, s", fmt("%.0f", wall_s_), "");
  std::fflush(stdout);

  if (opt_.json.empty()) return;
  std::ofstream out(opt_.json, std::ios::app);
  if (!out) throw std::runtime_error("cannot append to " + opt_.json);
  auto list = [](const std::vector<double>& v) {
    std::ostringstream o;
    o << '[';
    for (std::size_t i = 0; i < v.size(); ++i) o << (i ? "," : "") << v[i];
    return o.str() + ']';
  };
  auto readJson = [&](const ReadStats& st) {
    if (st.unavailable) return std::string("null");
    return "{\"p50_ms\":" + std::to_string(st.p50()) + ",\"p99_ms\":" + std::to_string(st.p99()) +
           ",\"rows\":" + std::to_string(st.rows) + ",\"ms\":" + list(st.ms) + "}";
  };
  out << "{\"bench\":\"scale\",\"backend\":\"" << backend_.name() << "\",\"time\":" << now_
      << ",\"points\":" << all_points << ",\"items\":" << stream_->items().size()
      << ",\"stretch\":" << stream_->stretch() << ",\"backfill_points\":" << backfill_points_
      << ",\"backfill_stored\":" << backfill_stored_
      << ",\"backfill_cut\":" << (backfill_cut_ ? "true" : "false")
      << ",\"backfills\":" << backfills_ << ",\"cycle_points\":" << cycle_points_
      << ",\"cycles\":" << cycle_count_ << ",\"backfill_store_s\":" << backfill_.store_s
      << ",\"backfill_reference_s\":" << backfill_.reference_s
      << ",\"cycles_store_s\":" << cycles_.store_s
      << ",\"cycles_reference_s\":" << cycles_.reference_s << ",\"ratio\":" << ratio
      << ",\"history_hot\":" << readJson(history_hot_)
      << ",\"history_cold\":" << readJson(history_cold_)
      << ",\"candles_hot\":" << readJson(candles_hot_)
      << ",\"candles_cold\":" << readJson(candles_cold_)
      << ",\"retention_s\":" << (retention_s_ ? std::to_string(*retention_s_) : std::string("null"))
      << ",\"retention_deleted\":" << retention_deleted_ << ",\"raw_rows\":" << s.raw_rows
      << ",\"raw_bytes\":" << s.raw_bytes << ",\"partitions\":" << s.partitions
      << ",\"reference_raw_rows\":" << r.raw_rows << ",\"reference_raw_bytes\":" << r.raw_bytes
      << ",\"hourly_rows\":" << s.hourly_rows << ",\"hourly_bytes\":" << s.hourly_bytes
      << ",\"daily_rows\":" << s.daily_rows << ",\"daily_bytes\":" << s.daily_bytes
      << ",\"file_bytes\":" << s.file_bytes << ",\"settle_s\":" << settle_s_
      << ",\"peak_rss_mib\":" << peakRssMiB() << ",\"wall_s\":" << wall_s_ << "}\n";
}

int ScaleBench::run() {
  const auto t0 = Clock::now();
  prepare();
  writeBackfills();
  writeCycles();
  // Hot: items the last cycles wrote (their rows and index pages are in the caches).
  {
    std::vector<std::size_t> listed;
    for (std::size_t i = 0; i < stream_->items().size(); ++i)
      if (stream_->lists(i, last_poll_source_)) listed.push_back(i);
    std::mt19937_64 rng(29);
    std::shuffle(listed.begin(), listed.end(), rng);
    listed.resize(std::min(listed.size(), kHotItems));
    hot_ = listed;
  }
  settle_s_ = backend_.settle();
  std::cerr << "  settled in " << fmt("%.1f", settle_s_) << " s; reading\n";
  readHistory();
  readCandles();
  store_sizes_ = backend_.storeSizes();
  reference_sizes_ = backend_.referenceSizes();
  const auto cycles_wrote = static_cast<std::int64_t>(stream_->count(live_from_, now_));
  if (backfill_cut_ && store_sizes_.raw_rows != cycles_wrote)
    throw std::runtime_error("the store keeps " + std::to_string(store_sizes_.raw_rows) +
                             " raw points; the cycles wrote " + std::to_string(cycles_wrote) +
                             " and the backfills were older than the raw cut-off");
  retentionPass();
  wall_s_ = seconds(Clock::now() - t0);
  report();
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const Options opt = parseOptions(argc, argv);
  std::unique_ptr<bench::BenchBackend> backend;
  try {
    backend = bench::BenchBackend::create(opt.database, opt.scratch);
    int rc = 0;
    {
      ScaleBench bench(opt, *backend);
      rc = bench.run();
    }  // the store's connections close before the cleanup drops what they used
    if (opt.keep)
      std::cerr << "bench_scale: --keep: left " << backend->where() << " in place\n";
    else
      backend->cleanup();
    return rc;
  } catch (const std::exception& e) {
    std::cerr << "bench_scale: " << e.what() << "\n";
    if (backend && !opt.keep) backend->cleanup();
    return 1;
  }
}
