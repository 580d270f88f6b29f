// bench_alerts: the alerts' evaluation after one ingestion cycle (bench/README.md,
// "alerts"). 25,000 items with three sources each in the latest-price cache, a metrics
// snapshot with every item's signals for 1h/24h/7d and the three top-100 rankings, and
// 100,000 rules spread over the items (four per item; every condition type, mixed
// thresholds). Each run brings a cycle with a new point for every item and every source
// (a random walk, so some conditions flip each cycle), then times what the cycle
// observer does in memory: the touched item ids de-duplicated, the reference order
// built, and every rule of every touched item evaluated with its edge state updated.
// Rendering the firings' payloads is timed apart (it runs after the evaluation, outside
// its lock); the database write of the firings is not timed (one transaction, of the
// firings only; bench/README.md says why).
//
//   bench_alerts [--items N] [--rules N] [--runs N]

#include "alerts/Evaluator.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

using namespace skinpulse;
using namespace skinpulse::alerts;
using Clock = std::chrono::steady_clock;

namespace {

constexpr std::int64_t kNow = 1800000000;
const std::vector<std::string> kSources = {"skinport", "steam_market", "csfloat"};

Condition conditionFor(std::size_t i, std::mt19937_64& rng) {
  Condition c;
  std::uniform_real_distribution<double> pct(1.0, 15.0);
  switch (i % 6) {
    case 0:
      c.type = ConditionType::kPriceBelow;
      c.value = 900 + static_cast<std::int64_t>(rng() % 200);
      break;
    case 1:
      c.type = ConditionType::kPriceAbove;
      c.value = 1000 + static_cast<std::int64_t>(rng() % 200);
      c.source = kSources[rng() % kSources.size()];
      break;
    case 2:
      c.type = ConditionType::kPercentChange;
      c.window = rng() % 3;
      c.threshold = pct(rng);
      c.direction = static_cast<Direction>(rng() % 3);
      break;
    case 3:
      c.type = ConditionType::kBollingerBreak;
      c.window = rng() % 3;
      break;
    case 4:
      c.type = ConditionType::kSpreadAbove;
      c.threshold = pct(rng);
      break;
    default:
      c.type = ConditionType::kVolatilityRank;
      c.window = rng() % 3;
      c.top = 1 + static_cast<int>(rng() % 100);
      break;
  }
  return c;
}

std::shared_ptr<metrics::MetricsSnapshot> metricsFor(std::size_t items, std::mt19937_64& rng) {
  std::array<metrics::MetricsSnapshot::Window, metrics::kWindowCount> windows;
  std::normal_distribution<double> change(0.0, 5.0);
  for (auto& w : windows) {
    w.slots.reserve(items);
    w.signals.reserve(items);
    for (std::size_t i = 1; i <= items; ++i) {
      const double mid = 1000 + static_cast<double>(rng() % 100);
      const double sigma = 5 + static_cast<double>(rng() % 40);
      const double last = mid + change(rng) * sigma / 5;
      w.slots.push_back({static_cast<std::int64_t>(i), 0, 0});
      w.signals.push_back({change(rng), mid + 2 * sigma, mid - 2 * sigma, last, true});
    }
    for (int r = 0; r < 100; ++r) {
      w.ranked.push_back({static_cast<std::int64_t>(1 + rng() % items), 1.0, 0.0});
    }
  }
  return std::make_shared<metrics::MetricsSnapshot>(kNow, std::move(windows));
}

}  // namespace

int main(int argc, char** argv) {
  std::size_t items = 25000, rules = 100000, runs = 9;
  for (int i = 1; i + 1 < argc; i += 2) {
    const auto value = static_cast<std::size_t>(std::strtoull(argv[i + 1], nullptr, 10));
    if (std::strcmp(argv[i], "--items") == 0) items = value;
    if (std::strcmp(argv[i], "--rules") == 0) rules = value;
    if (std::strcmp(argv[i], "--runs") == 0) runs = value;
  }
  std::mt19937_64 rng(19);

  Evaluator evaluator;
  std::vector<std::pair<std::int64_t, std::int64_t>> bare_rules;  // (item, cents) for the reference
  bare_rules.reserve(rules);
  for (std::size_t i = 0; i < rules; ++i) {
    bare_rules.emplace_back(static_cast<std::int64_t>(1 + i % items),
                            static_cast<std::int64_t>(900 + i % 300));
    Rule r;
    r.id = static_cast<std::int64_t>(i + 1);
    r.user_id = "00000000-0000-4000-8000-" + std::to_string(100000000000 + i % 5000);
    r.item_id = static_cast<std::int64_t>(1 + i % items);
    r.condition = conditionFor(i / items + i, rng);
    r.cooldown_seconds = 0;
    evaluator.upsert(r);
  }

  prices::LatestPrices latest;
  std::vector<prices::SourceProfile> profiles;
  for (const auto& s : kSources) profiles.push_back({s, s, sdk::PriceKind::kAsk, true, 300, 0});
  const prices::PricePolicy policy(profiles, {}, true, 3.0);
  std::vector<double> price(items * kSources.size(), 1000.0);
  std::normal_distribution<double> step(0.0, 0.02);
  const auto cycle = [&](std::int64_t at) {
    std::vector<store::PricePoint> points;
    points.reserve(price.size());
    for (std::size_t i = 0; i < items; ++i) {
      for (std::size_t s = 0; s < kSources.size(); ++s) {
        auto& p = price[i * kSources.size() + s];
        p = std::clamp(p * (1.0 + step(rng)), 500.0, 2000.0);
        points.push_back(
            {static_cast<std::int64_t>(i + 1), kSources[s], at, static_cast<std::int64_t>(p), 1});
      }
    }
    latest.apply(points);
    return points;
  };
  cycle(kNow - 600);

  std::printf("bench_alerts: %zu rules over %zu items (%zu sources each), %zu runs\n", rules, items,
              kSources.size(), runs);
  std::vector<double> totals, evals, renders, references;
  for (std::size_t run = 0; run < runs; ++run) {
    const std::int64_t now = kNow + static_cast<std::int64_t>(run) * 60;
    const auto points = cycle(now);
    const auto metrics = metricsFor(items, rng);  // this cycle's snapshot (not timed)

    const auto t0 = Clock::now();
    std::vector<std::int64_t> touched;
    touched.reserve(points.size());
    for (const auto& p : points) touched.push_back(p.item_id);
    std::sort(touched.begin(), touched.end());
    touched.erase(std::unique(touched.begin(), touched.end()), touched.end());
    const auto snapshot = latest.snapshot();
    const auto order = policy.referenceOrder(snapshot->source_names);
    const Inputs inputs{snapshot.get(), metrics.get(), &order, &policy, now};
    const auto t1 = Clock::now();
    const auto result = evaluator.evaluate(touched, inputs);
    const auto t2 = Clock::now();
    // The reference, in the same run on the same snapshot: the least any evaluator does,
    // a bare loop over every rule that finds its item's latest prices and compares the
    // first one with a threshold (no conditions, no edges, no index).
    const auto r0 = Clock::now();
    std::size_t holding = 0;
    for (const auto& [item, cents] : bare_rules) {
      const auto found = snapshot->by_item.find(item);
      if (found != snapshot->by_item.end() && !found->second->empty() &&
          found->second->front().newest.price < cents) {
        ++holding;
      }
    }
    const double reference = std::chrono::duration<double, std::milli>(Clock::now() - r0).count();
    references.push_back(reference);
    std::size_t rendered = 0;  // the payloads, built after the evaluation, outside its lock
    for (const auto& firing : result.firings) rendered += render(firing).json.size();
    const auto t3 = Clock::now();

    const double total = std::chrono::duration<double, std::milli>(t2 - t0).count();
    const double eval = std::chrono::duration<double, std::milli>(t2 - t1).count();
    const double render_ms = std::chrono::duration<double, std::milli>(t3 - t2).count();
    totals.push_back(total);
    evals.push_back(eval);
    renders.push_back(render_ms);
    std::printf(
        "run %zu: %zu items touched, %zu state changes, %zu firings: evaluate %.2f ms, "
        "observer total %.2f ms; rendering the firings %.2f ms (%zu bytes); reference loop "
        "%.2f ms (%zu holding)\n",
        run + 1, touched.size(), result.changes.size(), result.firings.size(), eval, total,
        render_ms, rendered, reference, holding);
  }
  const auto median = [](std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
  };
  std::printf(
      "median: evaluate %.2f ms, observer total %.2f ms (target <= 20 ms); rendering %.2f ms; "
      "reference (bare loop over every rule) %.2f ms\n",
      median(evals), median(totals), median(renders), median(references));
  return 0;
}
