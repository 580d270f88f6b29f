#include "alerts/Evaluator.hpp"

#include <cppunit/extensions/HelperMacros.h>

using namespace skinpulse;
using namespace skinpulse::alerts;

namespace {

constexpr std::int64_t kNow = 1800000000;
constexpr std::size_t k24h = 1;

Rule rule(std::int64_t id, std::int64_t item, Condition condition, std::int64_t cooldown = 0) {
  Rule r;
  r.id = id;
  r.user_id = "user-" + std::to_string(id);
  r.item_id = item;
  r.condition = condition;
  r.cooldown_seconds = cooldown;
  r.channels = {Channel{}};
  return r;
}

Condition priceBelow(std::int64_t cents, std::optional<std::string> source = std::nullopt) {
  Condition c;
  c.type = ConditionType::kPriceBelow;
  c.value = cents;
  c.source = std::move(source);
  return c;
}

// A metrics snapshot with one 24h signal per (item, signal) and a 24h ranking.
std::shared_ptr<metrics::MetricsSnapshot> metricsWith(
    std::vector<std::pair<std::int64_t, metrics::MetricsSnapshot::Signal>> signals,
    std::vector<std::int64_t> ranked = {}) {
  std::array<metrics::MetricsSnapshot::Window, metrics::kWindowCount> windows;
  for (const auto& [item, signal] : signals) {
    windows[k24h].slots.push_back({item, 0, 0});
    windows[k24h].signals.push_back(signal);
  }
  for (auto item : ranked) windows[k24h].ranked.push_back({item, 1.0, 0.0});
  return std::make_shared<metrics::MetricsSnapshot>(kNow, std::move(windows));
}

}  // namespace

class EvaluatorTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(EvaluatorTest);
  CPPUNIT_TEST(priceBelowFiresOnTheEdgeOnly);
  CPPUNIT_TEST(priceAboveReadsTheNamedSource);
  CPPUNIT_TEST(cooldownSuppressesAnEdgeWithinIt);
  CPPUNIT_TEST(percentChangeHonoursDirection);
  CPPUNIT_TEST(bollingerBreakNeedsAPriceOutsideTheBands);
  CPPUNIT_TEST(spreadAboveUsesFreshAsks);
  CPPUNIT_TEST(volatilityRankIsTheTopN);
  CPPUNIT_TEST(onlyTheTouchedItemsAreEvaluated);
  CPPUNIT_TEST(disabledAndRemovedRulesStaySilent);
  CPPUNIT_TEST(noDataIsFalse);
  CPPUNIT_TEST_SUITE_END();

 public:
  EvaluationResult run(const std::vector<std::int64_t>& items, std::int64_t now = kNow) {
    snapshot_ = latest_.snapshot();
    Inputs in{snapshot_.get(), metrics_.get(), &order_, &policy_, now};
    return evaluator_.evaluate(items, in);
  }

  void priceBelowFiresOnTheEdgeOnly() {
    evaluator_.upsert(rule(1, 7, priceBelow(1000)));
    latest_.apply({{7, "market", kNow - 120, 1100, 1}, {7, "market", kNow - 60, 1050, 1}});
    auto r = run({7});
    CPPUNIT_ASSERT(r.firings.empty());
    CPPUNIT_ASSERT(r.changes.empty());  // false stays false: nothing to write

    latest_.apply({{7, "market", kNow - 30, 990, 1}});
    r = run({7});
    CPPUNIT_ASSERT_EQUAL(std::size_t{1}, r.firings.size());
    CPPUNIT_ASSERT_EQUAL(std::int64_t{1}, r.firings[0].rule_id);
    CPPUNIT_ASSERT_EQUAL(std::string("user-1"), r.firings[0].user_id);
    CPPUNIT_ASSERT_EQUAL(std::string(R"({"price":990,"source":"market"})"),
                         render(r.firings[0]).json);
    CPPUNIT_ASSERT(r.changes[0].fired_at.has_value());

    latest_.apply({{7, "market", kNow - 20, 980, 1}});
    r = run({7});  // still true: no new edge
    CPPUNIT_ASSERT(r.firings.empty());

    latest_.apply({{7, "market", kNow - 10, 1200, 1}});
    r = run({7});  // back to false: recorded, not fired
    CPPUNIT_ASSERT(r.firings.empty());
    CPPUNIT_ASSERT_EQUAL(std::size_t{1}, r.changes.size());
    CPPUNIT_ASSERT(!r.changes[0].state);

    latest_.apply({{7, "market", kNow - 5, 900, 1}});
    CPPUNIT_ASSERT_EQUAL(std::size_t{1}, run({7}).firings.size());  // a second edge
  }

  void priceAboveReadsTheNamedSource() {
    Condition c;
    c.type = ConditionType::kPriceAbove;
    c.value = 2000;
    c.source = "dear";
    evaluator_.upsert(rule(1, 7, c));
    latest_.apply({{7, "cheap", kNow - 60, 1000, 1}, {7, "dear", kNow - 60, 1999, 1}});
    CPPUNIT_ASSERT(run({7}).firings.empty());
    latest_.apply({{7, "cheap", kNow - 30, 5000, 1}});  // another source: no matter
    CPPUNIT_ASSERT(run({7}).firings.empty());
    latest_.apply({{7, "dear", kNow - 30, 2001, 1}});
    CPPUNIT_ASSERT_EQUAL(std::size_t{1}, run({7}).firings.size());
  }

  void cooldownSuppressesAnEdgeWithinIt() {
    evaluator_.upsert(rule(1, 7, priceBelow(1000), 3600));
    latest_.apply({{7, "m", kNow - 100, 900, 1}});
    CPPUNIT_ASSERT_EQUAL(std::size_t{1}, run({7}, kNow).firings.size());
    latest_.apply({{7, "m", kNow - 90, 1100, 1}});
    run({7}, kNow + 10);
    latest_.apply({{7, "m", kNow - 80, 900, 1}});
    CPPUNIT_ASSERT(run({7}, kNow + 20).firings.empty());  // an edge inside the cooldown
    latest_.apply({{7, "m", kNow - 70, 1100, 1}});
    run({7}, kNow + 3600);
    latest_.apply({{7, "m", kNow - 60, 900, 1}});
    CPPUNIT_ASSERT_EQUAL(std::size_t{1}, run({7}, kNow + 3601).firings.size());
  }

  void percentChangeHonoursDirection() {
    Condition down;
    down.type = ConditionType::kPercentChange;
    down.window = k24h;
    down.threshold = 5;
    down.direction = Direction::kDown;
    Condition up = down;
    up.direction = Direction::kUp;
    Condition any = down;
    any.direction = Direction::kAny;
    evaluator_.upsert(rule(1, 7, down));
    evaluator_.upsert(rule(2, 7, up));
    evaluator_.upsert(rule(3, 7, any));
    metrics_ = metricsWith({{7, {-6.0, 0, 0, 940, true}}});
    auto r = run({7});
    CPPUNIT_ASSERT_EQUAL(std::size_t{2}, r.firings.size());
    CPPUNIT_ASSERT_EQUAL(std::int64_t{1}, r.firings[0].rule_id);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{3}, r.firings[1].rule_id);
    CPPUNIT_ASSERT(render(r.firings[0]).text.find("-6.00 %") != std::string::npos);

    metrics_ = metricsWith({{7, {4.9, 0, 0, 1049, true}}});
    r = run({7});  // inside the threshold: every rule false again
    CPPUNIT_ASSERT(r.firings.empty());
    metrics_ = metricsWith({{7, {5.0, 0, 0, 1050, true}}});
    r = run({7});
    CPPUNIT_ASSERT_EQUAL(std::size_t{2}, r.firings.size());  // up and any; the threshold counts
    CPPUNIT_ASSERT_EQUAL(std::int64_t{2}, r.firings[0].rule_id);
  }

  void bollingerBreakNeedsAPriceOutsideTheBands() {
    Condition c;
    c.type = ConditionType::kBollingerBreak;
    c.window = k24h;
    evaluator_.upsert(rule(1, 7, c));
    metrics_ = metricsWith({{7, {0, 1100, 900, 1050, true}}});
    CPPUNIT_ASSERT(run({7}).firings.empty());
    metrics_ = metricsWith({{7, {0, 1100, 900, 899, true}}});
    CPPUNIT_ASSERT_EQUAL(std::size_t{1}, run({7}).firings.size());
    metrics_ = metricsWith({{7, {0, 1000, 1000, 1000, true}}});  // σ = 0: no band to break
    auto r = run({7});
    CPPUNIT_ASSERT(r.firings.empty());
    metrics_ = metricsWith({{7, {0, 1100, 900, 1101, true}}});
    CPPUNIT_ASSERT_EQUAL(std::size_t{1}, run({7}).firings.size());
  }

  void spreadAboveUsesFreshAsks() {
    Condition c;
    c.type = ConditionType::kSpreadAbove;
    c.threshold = 10;
    evaluator_.upsert(rule(1, 7, c));
    using prices::SourceProfile;
    policy_ = prices::PricePolicy({SourceProfile{"a", "a", sdk::PriceKind::kAsk, true, 60, 0},
                                   SourceProfile{"b", "b", sdk::PriceKind::kAsk, true, 60, 0},
                                   SourceProfile{"stale", "s", sdk::PriceKind::kAsk, true, 60, 0},
                                   SourceProfile{"spike", "s", sdk::PriceKind::kAsk, true, 60, 0}},
                                  {}, true, 3.0);
    store::PricePoint bid{7, "bid-market", kNow - 10, 5000, 1};
    bid.kind = sdk::PriceKind::kBid;
    store::PricePoint spike{7, "spike", kNow - 10, 9000, 1};
    spike.outlier = true;
    latest_.apply({{7, "a", kNow - 10, 1000, 1},
                   {7, "b", kNow - 10, 1090, 1},
                   {7, "stale", kNow - 600, 3000, 1},  // older than 3 intervals
                   spike,                              // flagged: left out
                   bid});                              // not an ask
    CPPUNIT_ASSERT(run({7}).firings.empty());          // 9 %
    latest_.apply({{7, "b", kNow - 5, 1110, 1}});
    const auto r = run({7});
    CPPUNIT_ASSERT_EQUAL(std::size_t{1}, r.firings.size());  // 11 %
    CPPUNIT_ASSERT(render(r.firings[0]).json.find(R"("min_source":"a")") != std::string::npos);

    prices::LatestPrices one;
    one.apply({{8, "a", kNow - 10, 1000, 1}});
    const auto snapshot = one.snapshot();
    Inputs in{snapshot.get(), nullptr, &order_, &policy_, kNow};
    CPPUNIT_ASSERT(!spreadOf(*snapshot->by_item.at(8), in).has_value());  // one price
  }

  void volatilityRankIsTheTopN() {
    Condition c;
    c.type = ConditionType::kVolatilityRank;
    c.window = k24h;
    c.top = 2;
    evaluator_.upsert(rule(1, 7, c));
    evaluator_.upsert(rule(2, 8, c));
    metrics_ = metricsWith({}, {5, 7, 8});
    const auto r = run({7, 8});
    CPPUNIT_ASSERT_EQUAL(std::size_t{1}, r.firings.size());
    CPPUNIT_ASSERT_EQUAL(std::int64_t{7}, r.firings[0].item_id);
    CPPUNIT_ASSERT_EQUAL(std::string(R"({"rank":2,"window":"24h"})"), render(r.firings[0]).json);
  }

  void onlyTheTouchedItemsAreEvaluated() {
    evaluator_.upsert(rule(1, 7, priceBelow(1000)));
    evaluator_.upsert(rule(2, 8, priceBelow(1000)));
    latest_.apply({{7, "m", kNow - 10, 500, 1}, {8, "m", kNow - 10, 500, 1}});
    const auto r = run({8});
    CPPUNIT_ASSERT_EQUAL(std::size_t{1}, r.firings.size());
    CPPUNIT_ASSERT_EQUAL(std::int64_t{2}, r.firings[0].rule_id);
    CPPUNIT_ASSERT_EQUAL(std::size_t{2}, evaluator_.watchedItems().size());
  }

  void disabledAndRemovedRulesStaySilent() {
    auto disabled = rule(1, 7, priceBelow(1000));
    disabled.enabled = false;
    evaluator_.upsert(disabled);
    evaluator_.upsert(rule(2, 7, priceBelow(1000)));
    evaluator_.remove(2);
    latest_.apply({{7, "m", kNow - 10, 500, 1}});
    CPPUNIT_ASSERT(run({7}).firings.empty());
    CPPUNIT_ASSERT_EQUAL(std::size_t{1}, evaluator_.size());
    CPPUNIT_ASSERT(evaluator_.watchedItems().empty());
    evaluator_.upsert(rule(1, 7, priceBelow(1000)));  // enabled again (a PATCH)
    CPPUNIT_ASSERT_EQUAL(std::size_t{1}, run({7}).firings.size());
  }

  void noDataIsFalse() {
    Condition pc;
    pc.type = ConditionType::kPercentChange;
    pc.threshold = 1;
    evaluator_.upsert(rule(1, 7, pc));
    evaluator_.upsert(rule(2, 7, priceBelow(1000000)));
    // A signal without a reference source (fewer than 2 points) counts as no data.
    metrics_ = metricsWith({{7, {-50, 0, 0, 0, false}}});
    CPPUNIT_ASSERT(run({7}).firings.empty());
  }

 private:
  Evaluator evaluator_;
  prices::LatestPrices latest_;
  std::shared_ptr<const prices::LatestPrices::Snapshot> snapshot_;
  std::shared_ptr<metrics::MetricsSnapshot> metrics_;
  std::vector<std::string> order_;
  // No configured source: every name has 24 h; outliers excluded (the default).
  prices::PricePolicy policy_;
};

CPPUNIT_TEST_SUITE_REGISTRATION(EvaluatorTest);
