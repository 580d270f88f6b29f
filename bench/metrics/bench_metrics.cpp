// bench_metrics: the metrics engine's cost per ingestion cycle at catalogue scale.
//
// Loads N items x S sources of history (one point every C seconds over D days) into a
// MetricsEngine with the real metric plugins, then R times: one cycle with a new point
// for every (item, source), folded in (apply) and the whole catalogue recomputed for the
// three windows and published (recompute). Prints the median and worst of each, the
// history fold rate and the process's resident memory: after the history fold (what a
// start-up rebuild leaves, per series) and at the end.
//
//   bench_metrics [--items N] [--sources S] [--cadence C] [--days D] [--runs R]
//                 [--plugins DIR] [--json FILE]
//   --series N        N series in all: N / S items (instead of --items)
//   --poll-seconds C  the same as --cadence C
//   --runs 0          the memory figures only

#include "catalog/Catalog.hpp"
#include "metrics/MetricsEngine.hpp"
#include "net/PocoHttpClient.hpp"
#include "plugin/PluginRegistry.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <iostream>
#include <random>
#include <string>

using namespace skinpulse;

namespace {

using Clock = std::chrono::steady_clock;

double threadCpuMs() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

double msSince(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

long residentKiB() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("VmRSS:", 0) == 0) return std::atol(line.c_str() + 6);
  }
  return -1;
}

// [a,b,...]: the per-cycle figures, to see which cycle a worst case belongs to.
std::string list(const std::vector<double>& v) {
  std::string out = "[";
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (i > 0) out += ',';
    out += std::to_string(v[i]);
  }
  return out + "]";
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

}  // namespace

int main(int argc, char** argv) {
  std::int64_t items = 25000, sources = 1, cadence = 300, days = 7, runs = 5;
  std::int64_t series_total = 0;
  std::string plugin_dir = SKINPULSE_BUILT_PLUGIN_DIR, json;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string arg = argv[i];
    const std::string value = argv[i + 1];
    if (arg == "--items")
      items = std::stoll(value);
    else if (arg == "--series")
      series_total = std::stoll(value);
    else if (arg == "--cadence" || arg == "--poll-seconds")
      cadence = std::stoll(value);
    else if (arg == "--sources")
      sources = std::stoll(value);
    else if (arg == "--days")
      days = std::stoll(value);
    else if (arg == "--runs")
      runs = std::stoll(value);
    else if (arg == "--plugins")
      plugin_dir = value;
    else if (arg == "--json")
      json = value;
    else {
      std::cerr << "bench_metrics: unknown option " << arg << "\n";
      return 2;
    }
  }

  if (series_total > 0) items = std::max<std::int64_t>(1, series_total / sources);
  if (items < 1 || sources < 1 || cadence < 1 || days < 1 || runs < 0) {
    std::cerr << "bench_metrics: --items, --sources, --cadence and --days must be >= 1\n";
    return 2;
  }
  const std::int64_t series_count = items * sources;

  net::PocoHttpClient http;
  catalog::Catalog catalog;
  std::vector<store::ItemRecord> records;
  for (std::int64_t id = 1; id <= items; ++id) {
    records.push_back(store::ItemRecord{id, "Bench item " + std::to_string(id), "Rifle", "Skin",
                                        "Covert", false, "", 0});
  }
  catalog.reset(records);
  plugin::HostServices services{http, catalog};
  plugin::PluginRegistry registry;
  registry.scan(plugin_dir);
  std::vector<plugin::MetricInstance> instances;
  for (const char* plugin :
       {"stddev", "percent_change", "bollinger", "coefficient_of_variation", "trend"}) {
    auto made = registry.createMetric({plugin::PluginKind::kMetric, plugin, plugin, {}}, services);
    if (!made) {
      std::cerr << "bench_metrics: " << made.error() << "\n";
      return 1;
    }
    instances.push_back(std::move(made).value());
  }
  std::vector<metrics::MetricSet::Entry> entries;
  for (const auto& instance : instances)
    entries.push_back({instance.instanceName(), instance.get()});
  std::vector<std::string> names;
  for (std::int64_t s = 0; s < sources; ++s) names.push_back("market-" + std::to_string(s));
  prices::LatestPrices latest;
  std::vector<prices::SourceProfile> profiles;
  for (const auto& name : names)
    profiles.push_back({name, name, sdk::PriceKind::kAsk, true, 60, 0.0});
  const prices::PricePolicy policy(std::move(profiles), {}, true, 3.0);
  metrics::MetricsEngine engine(catalog, latest, metrics::MetricSet(std::move(entries)), policy);

  // History: a random walk per series, folded in item by item like a store rebuild.
  // The history ends 1000 s before an hour boundary, so the cycles cross it: the 7d
  // window's oldest bucket leaves in one of them (the 1h and 24h ones leave every cycle).
  const std::int64_t now = 1'800'000'000 - 1000;
  std::mt19937 random(42);
  std::normal_distribution<double> step(0, 0.01);
  std::vector<double> level(static_cast<std::size_t>(items * sources));
  for (auto& l : level) l = 100 + random() % 100000;
  // The process before any series exists: the catalogue, the plugins, the generator.
  const long rss_before_fold = residentKiB();
  const auto fold_start = Clock::now();
  std::size_t folded = 0;
  std::vector<store::PricePoint> chunk;
  for (std::int64_t id = 1; id <= items; ++id) {
    chunk.clear();
    for (std::int64_t s = 0; s < sources; ++s) {
      double& price = level[static_cast<std::size_t>((id - 1) * sources + s)];
      for (std::int64_t t = now - days * 86400 + (id * 7 + s * 13) % cadence; t <= now;
           t += cadence) {
        price *= 1 + step(random);
        chunk.push_back(
            {id, names[static_cast<std::size_t>(s)], t, static_cast<std::int64_t>(price), 1});
      }
    }
    engine.apply(chunk, now);
    folded += chunk.size();
  }
  engine.shrinkToFit();  // as rebuild() does once the history is in
  const double fold_ms = msSince(fold_start);
  const long rss_after_fold = residentKiB();
  const std::size_t series_bytes = engine.seriesBytes();
  const double bytes_per_series =
      (rss_after_fold - rss_before_fold) * 1024.0 / static_cast<double>(series_count);
  latest.apply(chunk);
  engine.recompute(now);

  std::vector<double> apply_ms, recompute_ms, recompute_cpu_ms;
  std::vector<store::PricePoint> cycle;
  for (std::int64_t r = 1; r <= runs; ++r) {
    const std::int64_t at = now + r * cadence;
    cycle.clear();
    for (std::int64_t id = 1; id <= items; ++id) {
      for (std::int64_t s = 0; s < sources; ++s) {
        double& price = level[static_cast<std::size_t>((id - 1) * sources + s)];
        price *= 1 + step(random);
        cycle.push_back(
            {id, names[static_cast<std::size_t>(s)], at - 1, static_cast<std::int64_t>(price), 1});
      }
    }
    latest.apply(cycle);
    auto start = Clock::now();
    engine.apply(cycle, at);
    apply_ms.push_back(msSince(start));
    start = Clock::now();
    const double cpu = threadCpuMs();
    engine.recompute(at);
    recompute_cpu_ms.push_back(threadCpuMs() - cpu);
    recompute_ms.push_back(msSince(start));
  }
  const auto snapshot = engine.snapshot();
  const long rss = residentKiB();
  if (runs == 0) {  // no cycles: report the memory only
    apply_ms.push_back(0);
    recompute_ms.push_back(0);
    recompute_cpu_ms.push_back(0);
  }
  std::printf("bench_metrics: %lld items x %lld source(s), one point every %lld s over %lld days\n",
              static_cast<long long>(items), static_cast<long long>(sources),
              static_cast<long long>(cadence), static_cast<long long>(days));
  std::printf("  history fold: %zu points in %.0f ms (%.1f M points/s)\n", folded, fold_ms,
              folded / fold_ms / 1000.0);
  std::printf(
      "  series memory: %lld series, resident %.0f MiB before the fold, %.0f MiB after"
      " (%.0f bytes per series; the engine counts %.0f)\n",
      static_cast<long long>(series_count), rss_before_fold / 1024.0, rss_after_fold / 1024.0,
      bytes_per_series, static_cast<double>(series_bytes) / static_cast<double>(series_count));
  if (runs > 0) {
    std::printf("  cycle apply (%zu points): median %.2f ms, worst %.2f ms\n", cycle.size(),
                median(apply_ms), *std::max_element(apply_ms.begin(), apply_ms.end()));
    std::printf(
        "  full recompute (%lld items x 3 windows + rankings): median %.2f ms, worst %.2f ms"
        " (target < 100 ms); CPU time median %.2f ms\n",
        static_cast<long long>(items), median(recompute_ms),
        *std::max_element(recompute_ms.begin(), recompute_ms.end()), median(recompute_cpu_ms));
  }
  std::printf(
      "  snapshot: top item %lld, resident memory %.0f MiB\n",
      snapshot->ranking(1).empty() ? -1LL : static_cast<long long>(snapshot->ranking(1)[0].item_id),
      rss / 1024.0);
  if (!json.empty()) {
    std::ofstream out(json, std::ios::app);
    out << "{\"bench\":\"metrics\",\"items\":" << items << ",\"sources\":" << sources
        << ",\"cadence\":" << cadence << ",\"days\":" << days << ",\"runs\":" << runs
        << ",\"fold_ms\":" << fold_ms << ",\"folded\":" << folded
        << ",\"apply_ms_median\":" << median(apply_ms)
        << ",\"recompute_ms_median\":" << median(recompute_ms)
        << ",\"recompute_ms_worst\":" << *std::max_element(recompute_ms.begin(), recompute_ms.end())
        << ",\"recompute_cpu_ms_median\":" << median(recompute_cpu_ms) << ",\"rss_kib\":" << rss
        << ",\"rss_before_fold_kib\":" << rss_before_fold
        << ",\"rss_after_fold_kib\":" << rss_after_fold << ",\"apply_ms\":" << list(apply_ms)
        << ",\"recompute_ms\":" << list(recompute_ms)
        << ",\"bytes_per_series\":" << bytes_per_series << ",\"engine_bytes_per_series\":"
        << static_cast<double>(series_bytes) / static_cast<double>(series_count) << "}\n";
  }
  return 0;
}
