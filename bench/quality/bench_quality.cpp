// bench_quality: what freshness, outliers, consensus and spreads (docs/api.md §12) add to
// an ingestion cycle of ITEMS items from SOURCES sources (bench/README.md, "quality/run.sh").
//
//   bench_quality --share DIR [--items 25000] [--sources 6] [--runs 7] [--json FILE]
//
// Measured, RUNS times each, interleaved, medians reported:
//   judge      OutlierJudge over the cycle's ITEMS × SOURCES points on top of the latest
//              prices of the previous cycle: the one step the rules add to a cycle.
//   consensus  consensus() of every item (what item detail computes per request), as one
//              pass over the latest prices after the cycle.
//   spread     bestSpread() of every item plus the top-20 sort: one GET
//              /api/v1/rankings/spread.
//   cycle      IngestCycle::run of the same batches on SQLite (a temp file), once with the
//              outlier rules and once without, on two databases in the same state; the
//              difference of the medians is the added latency as the daemon sees it.
// The previous cycle's prices sit around a per-item level with ±10 % per source; one
// point in 2,000 is a 6x spike, so the judge meets flagged points and confirmations.

#include "catalog/Catalog.hpp"
#include "common/Time.hpp"
#include "ingest/IngestCycle.hpp"
#include "prices/LatestPrices.hpp"
#include "prices/PricePolicy.hpp"
#include "quality/CrossMarket.hpp"
#include "quality/Outliers.hpp"
#include "store/Database.hpp"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <unistd.h>
#include <vector>

namespace {

using namespace skinpulse;
using Clock = std::chrono::steady_clock;

struct Options {
  std::string share;
  std::size_t items = 25000;
  std::size_t sources = 6;
  std::size_t runs = 7;
  std::string json;
};

[[noreturn]] void usage(const std::string& problem) {
  std::cerr << "bench_quality: " << problem
            << "\nusage: bench_quality --share DIR [--items 25000] [--sources 6] [--runs 7]"
               " [--json FILE]\n";
  std::exit(2);
}

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) usage(arg + " needs a value");
      return argv[++i];
    };
    auto count = [&]() -> std::size_t {
      const std::string v = value();
      const long long n = std::atoll(v.c_str());
      if (n <= 0) usage(arg + " wants a positive integer, not '" + v + "'");
      return static_cast<std::size_t>(n);
    };
    if (arg == "--share")
      o.share = value();
    else if (arg == "--items")
      o.items = count();
    else if (arg == "--sources")
      o.sources = count();
    else if (arg == "--runs")
      o.runs = count();
    else if (arg == "--json")
      o.json = value();
    else
      usage("unknown option " + arg);
  }
  if (o.share.empty()) usage("--share is required");
  return o;
}

double ms(Clock::duration d) { return std::chrono::duration<double, std::milli>(d).count(); }

// CPU time of this thread, ms: on a shared box the wall time also counts the time other
// processes held the core; the CPU time is what the step costs.
double threadCpuMs() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) * 1e3 + static_cast<double>(ts.tv_nsec) / 1e6;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

std::uint64_t mix(std::uint64_t x) {
  x ^= x >> 31;
  x *= 0xD6E8FEB86659FD93ull;
  x ^= x >> 32;
  return x;
}

std::string sourceName(std::size_t s) {
  return "market-" + std::string(1, static_cast<char>('a' + s));
}

// Per item a level of 10 cents .. ~$2,500; per source ±10 %; one point in 2,000 a 6x spike.
std::int64_t priceOf(std::size_t item, std::size_t source, std::size_t run) {
  const double level = 10.0 + static_cast<double>(mix(item * 0x9E3779B97F4A7C15ull) % 250000);
  const std::uint64_t r =
      mix(item * 131 + source * 0xBF58476D1CE4E5B9ull + run * 0x94D049BB133111EBull);
  const double noise = 0.9 + static_cast<double>(r % 2001) / 10000.0;
  const double spike = r % 2000 == 7 ? 6.0 : 1.0;
  return static_cast<std::int64_t>(level * noise * spike);
}

std::vector<store::CatalogEntry> catalogue(std::size_t n) {
  std::vector<store::CatalogEntry> out(n);
  for (std::size_t i = 0; i < n; ++i) out[i].market_hash_name = "Bench Item " + std::to_string(i);
  return out;
}

// One source batch per source: every item, cents, the source's own time.
std::vector<ingest::SourceBatch> batches(const std::vector<store::CatalogEntry>& items,
                                         std::size_t sources, std::size_t run, std::int64_t time) {
  std::vector<ingest::SourceBatch> out;
  for (std::size_t s = 0; s < sources; ++s) {
    ingest::SourceBatch batch;
    batch.source = sourceName(s);
    batch.poll_time = time;
    batch.kind = s < 4    ? sdk::PriceKind::kAsk
                 : s == 4 ? sdk::PriceKind::kBid
                          : sdk::PriceKind::kSale;
    batch.observations.reserve(items.size());
    for (std::size_t i = 0; i < items.size(); ++i) {
      sdk::Observation o;
      o.market_hash_name = items[i].market_hash_name;
      o.price.form = sdk::QuotedPrice::Form::kCents;
      o.price.cents = priceOf(i, s, run);
      o.observed_at = time;
      batch.observations.push_back(std::move(o));
    }
    out.push_back(std::move(batch));
  }
  return out;
}

// The cycle's points as the normaliser hands them to the judge (item ids 1..N).
std::vector<store::PricePoint> points(std::size_t items, std::size_t sources, std::size_t run,
                                      std::int64_t time) {
  std::vector<store::PricePoint> out;
  out.reserve(items * sources);
  for (std::size_t s = 0; s < sources; ++s) {
    for (std::size_t i = 0; i < items; ++i) {
      store::PricePoint p;
      p.item_id = static_cast<std::int64_t>(i + 1);
      p.source = sourceName(s);
      p.time = time;
      p.price = priceOf(i, s, run);
      p.kind = s < 4 ? sdk::PriceKind::kAsk : s == 4 ? sdk::PriceKind::kBid : sdk::PriceKind::kSale;
      out.push_back(std::move(p));
    }
  }
  return out;
}

std::vector<prices::SourceProfile> profiles(std::size_t sources) {
  std::vector<prices::SourceProfile> out;
  for (std::size_t s = 0; s < sources; ++s) {
    out.push_back({sourceName(s), "bench", sdk::PriceKind::kAsk, true, 60, s % 2 ? 2.0 : 0.0});
  }
  return out;
}

struct Scratch {
  std::string path;
  ~Scratch() {
    for (const char* suffix : {"", "-wal", "-shm"}) {
      std::error_code ec;
      std::filesystem::remove(path + suffix, ec);
    }
  }
};

}  // namespace

int main(int argc, char** argv) {
  const Options opt = parse(argc, argv);
  // The daemon's default policy: outliers excluded, factor 3.
  const prices::PricePolicy policy(profiles(opt.sources), {}, true, 3.0);
  const prices::Freshness& freshness = policy.freshness();
  quality::FeeTable fees;
  for (const auto& p : profiles(opt.sources)) fees[p.name] = p.fee_percent;
  const std::int64_t t0 = time::nowSeconds() - 600;

  // --- in memory: the rules alone -----------------------------------------------------
  std::vector<double> judge_ms, apply_ms, consensus_ms, spread_ms;
  std::vector<double> judge_cpu, plain_cpu, consensus_cpu, spread_cpu;
  std::size_t flagged = 0, confirmed = 0;
  for (std::size_t run = 0; run < opt.runs; ++run) {
    prices::LatestPrices latest;
    {
      auto before = points(opt.items, opt.sources, 2 * run, t0);
      quality::OutlierJudge first(freshness, 3.0, before);
      latest.commit(latest.prepare(before, first.hook()));
    }
    // The cycle's fold into the latest prices without the rules, then with them (the
    // judge works inside that fold), alternating which goes first.
    auto cycle = points(opt.items, opt.sources, 2 * run + 1, t0 + 60);
    std::shared_ptr<const prices::LatestPrices::Snapshot> judged;
    for (int k = 0; k < 2; ++k) {
      const bool with = (k == 0) == (run % 2 == 0);
      auto copy = cycle;
      const auto started = Clock::now();
      const double cpu = threadCpuMs();
      if (with) {
        quality::OutlierJudge judge(freshness, 3.0, copy);
        judged = latest.prepare(copy, judge.hook());
        judge_cpu.push_back(threadCpuMs() - cpu);
        judge_ms.push_back(ms(Clock::now() - started));
        confirmed += judge.confirmed().size();
        flagged += static_cast<std::size_t>(std::count_if(
            copy.begin(), copy.end(), [](const store::PricePoint& p) { return p.outlier; }));
      } else {
        const auto plain = latest.prepare(copy, nullptr);
        plain_cpu.push_back(threadCpuMs() - cpu);
        apply_ms.push_back(ms(Clock::now() - started));
      }
    }
    latest.commit(judged);
    double cpu = 0;
    auto started = Clock::now();

    const auto snapshot = latest.snapshot();
    const std::int64_t now = t0 + 61;
    started = Clock::now();
    cpu = threadCpuMs();
    std::int64_t sum = 0;
    for (const auto& [item, entries] : snapshot->by_item) {
      sum += quality::consensus(*entries, policy, now).price.value_or(0);
    }
    consensus_cpu.push_back(threadCpuMs() - cpu);
    consensus_ms.push_back(ms(Clock::now() - started));
    started = Clock::now();
    cpu = threadCpuMs();
    std::vector<std::pair<std::int64_t, quality::SpreadOpportunity>> gaps;
    for (const auto& [item, entries] : snapshot->by_item) {
      if (auto gap = quality::bestSpread(*entries, policy, fees, 2, now))
        gaps.emplace_back(item, *gap);
    }
    const std::size_t top = std::min<std::size_t>(20, gaps.size());
    std::partial_sort(gaps.begin(), gaps.begin() + static_cast<std::ptrdiff_t>(top), gaps.end(),
                      [](const auto& a, const auto& b) {
                        return a.second.spread_percent > b.second.spread_percent;
                      });
    spread_cpu.push_back(threadCpuMs() - cpu);
    spread_ms.push_back(ms(Clock::now() - started));
    if (sum == 42) std::cerr << "";  // keep the loop
  }

  // --- the daemon's cycle, with and without the rules -------------------------------------
  const auto items = catalogue(opt.items);
  const char* tmp = std::getenv("TMPDIR");
  const std::string base =
      std::string(tmp && *tmp ? tmp : "/tmp") + "/bench_quality_" + std::to_string(getpid());
  Scratch with_path{base + "_with.db"}, without_path{base + "_without.db"};
  auto with_db = store::openDatabase("sqlite://" + with_path.path, opt.share + "/sql");
  auto without_db = store::openDatabase("sqlite://" + without_path.path, opt.share + "/sql");
  with_db->catalog().seed(items, t0);
  without_db->catalog().seed(items, t0);
  catalog::Catalog with_catalog, without_catalog;
  with_catalog.reset(with_db->catalog().allItems());
  without_catalog.reset(without_db->catalog().allItems());
  prices::LatestPrices with_latest, without_latest;
  ingest::IngestCycle with_cycle(*with_db, with_catalog, with_latest, false);
  ingest::IngestCycle without_cycle(*without_db, without_catalog, without_latest, false);
  with_cycle.setOutlierRules(policy);
  std::vector<double> with_ms, without_ms;
  for (std::size_t run = 0; run <= opt.runs; ++run) {
    const auto input = batches(items, opt.sources, run, t0 + 60 * static_cast<std::int64_t>(run));
    // Interleaved, alternating which goes first; run 0 fills both and is not counted.
    for (int k = 0; k < 2; ++k) {
      const bool with_first = run % 2 == 0;
      const bool with = (k == 0) == with_first;
      const auto started = Clock::now();
      (with ? with_cycle : without_cycle).run(input);
      if (run > 0) (with ? with_ms : without_ms).push_back(ms(Clock::now() - started));
    }
  }

  const double judge = median(judge_ms), cons = median(consensus_ms), spread = median(spread_ms);
  const double with = median(with_ms), without = median(without_ms);
  std::printf("items %zu, sources %zu, points per cycle %zu, runs %zu\n", opt.items, opt.sources,
              opt.items * opt.sources, opt.runs);
  const double added_wall = judge - median(apply_ms);
  const double added_cpu = median(judge_cpu) - median(plain_cpu);
  std::printf("                                  wall ms    CPU ms\n");
  std::printf("  latest prices fold, no rules   %8.2f  %8.2f\n", median(apply_ms),
              median(plain_cpu));
  std::printf("  the same fold with the judge   %8.2f  %8.2f  (flagged %zu, confirmed %zu)\n",
              judge, median(judge_cpu), flagged, confirmed);
  std::printf("  added by outliers + freshness  %8.2f  %8.2f\n", added_wall, added_cpu);
  std::printf("  consensus, every item          %8.2f  %8.2f\n", cons, median(consensus_cpu));
  std::printf("  spread ranking, every item     %8.2f  %8.2f\n", spread, median(spread_cpu));
  std::printf("  all three                      %8.2f  %8.2f\n", added_wall + cons + spread,
              added_cpu + median(consensus_cpu) + median(spread_cpu));
  std::printf("  cycle on SQLite with rules     %8.2f\n", with);
  std::printf("  cycle on SQLite without        %8.2f\n", without);
  std::printf("  difference of the medians      %8.2f\n", with - without);
  if (!opt.json.empty()) {
    std::ofstream out(opt.json, std::ios::app);
    char line[800];
    std::snprintf(line, sizeof line,
                  "{\"bench\":\"quality\",\"items\":%zu,\"sources\":%zu,\"runs\":%zu,"
                  "\"fold_judged_ms\":%.3f,\"fold_judged_cpu_ms\":%.3f,\"fold_plain_cpu_ms\":%.3f,"
                  "\"consensus_cpu_ms\":%.3f,\"spread_cpu_"
                  "ms\":%.3f,\"fold_plain_ms\":%.3f,\"consensus_ms\":%.3f,\"spread_ms\":%.3f,"
                  "\"cycle_with_ms\":%.3f,\"cycle_without_ms\":%.3f,\"flagged\":%zu,"
                  "\"confirmed\":%zu}\n",
                  opt.items, opt.sources, opt.runs, judge, median(judge_cpu), median(plain_cpu),
                  median(consensus_cpu), median(spread_cpu), median(apply_ms), cons, spread, with,
                  without, flagged, confirmed);
    out << line;
  }
  return 0;
}
