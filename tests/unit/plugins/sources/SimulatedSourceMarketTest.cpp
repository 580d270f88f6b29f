// The keys that make one `simulated` instance act like one market's export (issue 32):
// coverage, price_offset_percent, outlier_probability, lag_seconds, variants.
#include "skinpulse/sdk/variants.hpp"

#include "SimulatedSource.hpp"
#include "mocks/MockHost.hpp"

#include <cppunit/extensions/HelperMacros.h>

#include <cmath>
#include <map>
#include <memory>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

using skinpulse::plugins::simulated::coverageRank;
using skinpulse::plugins::simulated::finishOf;
using skinpulse::plugins::simulated::readSettings;
using skinpulse::plugins::simulated::SeedEntry;
using skinpulse::plugins::simulated::SimulatedSource;
using skinpulse::plugins::simulated::variantFactor;
using skinpulse::test::MockHost;
namespace sdk = skinpulse::sdk;

namespace {

std::string itemName(int i) { return "Item " + std::to_string(i) + " | Test (Field-Tested)"; }

std::vector<SeedEntry> seed(int count, std::int64_t cents, double volatility) {
  std::vector<SeedEntry> entries;
  for (int i = 0; i < count; ++i) entries.push_back({itemName(i), cents, volatility});
  return entries;
}

// An instance built from `keys` over `entries`, each seeded name in the host catalogue.
struct Market {
  MockHost host;
  std::unique_ptr<SimulatedSource> source;
  Market(std::map<std::string, std::string> keys, std::vector<SeedEntry> entries) {
    keys["seed_file"] = "unused.tsv";
    if (!keys.count("seed")) keys["seed"] = "9";
    for (const auto& [key, value] : keys) host.settings[key] = value;
    for (const auto& entry : entries) host.catalog_items.add(entry.market_hash_name);
    source =
        std::make_unique<SimulatedSource>(host, readSettings(host.config()), std::move(entries));
  }
  sdk::PollReport poll() {
    host.now_millis += 15000;
    return source->poll();
  }
};

std::set<std::string> names(const sdk::PollReport& report) {
  std::set<std::string> out;
  for (const auto& quote : report.quotes) out.insert(quote.market_hash_name);
  return out;
}

}  // namespace

class SimulatedSourceMarketTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(SimulatedSourceMarketTest);
  CPPUNIT_TEST(coverageReportsTheSameItemsEveryPoll);
  CPPUNIT_TEST(coverageIsNestedAcrossInstances);
  CPPUNIT_TEST(fractionMovesOnlySomeCoveredItems);
  CPPUNIT_TEST(heldItemsAreReportedToo);
  CPPUNIT_TEST(priceOffsetShiftsEveryQuote);
  CPPUNIT_TEST(dispersionGivesEachItemItsOwnLevel);
  CPPUNIT_TEST(outliersAreRareFiveFoldRows);
  CPPUNIT_TEST(lagStampsRowsInThePast);
  CPPUNIT_TEST(outageStopsAnsweringAfterSomePolls);
  CPPUNIT_TEST(variantsNameEveryPhase);
  CPPUNIT_TEST(withoutVariantsDopplerIsOneRow);
  CPPUNIT_TEST(refusesBadMarketKeys);
  CPPUNIT_TEST_SUITE_END();

 public:
  void coverageReportsTheSameItemsEveryPoll() {
    Market market({{"coverage", "0.25"}, {"fraction", "0.1"}}, seed(2000, 500, 0.05));
    const auto first = names(market.poll());
    // About a quarter of the items, exactly those whose rank is below the coverage.
    CPPUNIT_ASSERT(first.size() > 400 && first.size() < 600);
    for (const auto& name : first) CPPUNIT_ASSERT(coverageRank(name) < 0.25);
    CPPUNIT_ASSERT_EQUAL(first.size(), market.source->coveredCount());
    for (int poll = 0; poll < 5; ++poll) {
      const auto report = market.poll();
      CPPUNIT_ASSERT(names(report) == first);
      CPPUNIT_ASSERT_EQUAL(static_cast<std::int64_t>(report.quotes.size()), report.rows_read);
    }
  }

  void coverageIsNestedAcrossInstances() {
    Market small({{"coverage", "0.1"}}, seed(2000, 500, 0.05));
    Market large({{"coverage", "0.3"}, {"seed", "10"}}, seed(2000, 500, 0.05));
    const auto a = names(small.poll());
    const auto b = names(large.poll());
    CPPUNIT_ASSERT(!a.empty() && a.size() < b.size());
    for (const auto& name : a) CPPUNIT_ASSERT(b.count(name) == 1);
  }

  void fractionMovesOnlySomeCoveredItems() {
    Market market({{"coverage", "1"}, {"fraction", "0.1"}, {"jump_probability", "0"}},
                  seed(1000, 100000, 0.1));
    std::map<std::string, std::int64_t> before;
    for (const auto& quote : market.poll().quotes)
      before[quote.market_hash_name] = quote.price.cents;
    std::size_t moved = 0;
    const auto report = market.poll();
    CPPUNIT_ASSERT_EQUAL(std::size_t(1000), report.quotes.size());
    for (const auto& quote : report.quotes) {
      moved += quote.price.cents != before[quote.market_hash_name] ? 1 : 0;
    }
    // About 100 of 1,000 take a step (binomial: 3 sigma is about 28).
    CPPUNIT_ASSERT_MESSAGE(std::to_string(moved), moved > 60 && moved < 140);
  }

  void heldItemsAreReportedToo() {
    Market market({{"coverage", "0.01"}}, seed(300, 500, 0.05));
    // The ids of the catalogue follow the seed's order (MockCatalog numbers from 1).
    std::int64_t outside = 0;
    for (int i = 0; i < 300 && outside == 0; ++i) {
      if (coverageRank(itemName(i)) >= 0.01) outside = i + 1;
    }
    CPPUNIT_ASSERT(outside != 0);
    CPPUNIT_ASSERT(names(market.poll()).count(itemName(static_cast<int>(outside - 1))) == 0);
    market.host.catalog_items.held = {outside, outside};
    const auto report = market.poll();
    CPPUNIT_ASSERT(names(report).count(itemName(static_cast<int>(outside - 1))) == 1);
    std::size_t rows = 0;
    for (const auto& quote : report.quotes) {
      rows += quote.market_hash_name == itemName(static_cast<int>(outside - 1)) ? 1 : 0;
    }
    CPPUNIT_ASSERT_EQUAL(std::size_t(1), rows);  // held twice, reported once
  }

  void priceOffsetShiftsEveryQuote() {
    // No step (fraction applies to covered items; volatility tiny; one poll at +15 s).
    Market dear({{"coverage", "1"}, {"price_offset_percent", "4"}}, seed(50, 100000, 0.002));
    Market cheap({{"coverage", "1"}, {"price_offset_percent", "-3"}}, seed(50, 100000, 0.002));
    for (const auto& quote : dear.poll().quotes) {
      CPPUNIT_ASSERT_DOUBLES_EQUAL(104000.0, static_cast<double>(quote.price.cents), 200.0);
    }
    for (const auto& quote : cheap.poll().quotes) {
      CPPUNIT_ASSERT_DOUBLES_EQUAL(97000.0, static_cast<double>(quote.price.cents), 200.0);
    }
  }

  void dispersionGivesEachItemItsOwnLevel() {
    Market market({{"coverage", "1"}, {"dispersion_percent", "5"}, {"jump_probability", "0"}},
                  seed(2000, 100000, 0.002));
    std::map<std::string, std::int64_t> first;
    double sum = 0, squares = 0;
    for (const auto& quote : market.poll().quotes) {
      first[quote.market_hash_name] = quote.price.cents;
      const double r = std::log(static_cast<double>(quote.price.cents) / 100000.0);
      sum += r;
      squares += r * r;
    }
    const double mean = sum / 2000.0;
    const double deviation = std::sqrt(squares / 2000.0 - mean * mean);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.05, deviation, 0.006);  // 5 %, per item
    // The level is the hash's (tools/dev-history computes the same), the same every start.
    const double sigma = 0.05;
    const std::string name = itemName(17);
    const double level =
        std::exp(sigma * skinpulse::plugins::simulated::dispersionNormal("test", name) -
                 0.5 * sigma * sigma);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(100000.0 * level, static_cast<double>(first[name]),
                                 100000.0 * level * 0.003);
    // Persistent: the next poll quotes each item at its own level again.
    for (const auto& quote : market.poll().quotes) {
      CPPUNIT_ASSERT_DOUBLES_EQUAL(static_cast<double>(first[quote.market_hash_name]),
                                   static_cast<double>(quote.price.cents),
                                   0.01 * static_cast<double>(first[quote.market_hash_name]));
    }
  }

  void outliersAreRareFiveFoldRows() {
    Market market({{"coverage", "1"}, {"outlier_probability", "0.02"}, {"jump_probability", "0"}},
                  seed(1000, 100000, 0.002));
    std::size_t high = 0, low = 0, normal = 0;
    for (int poll = 0; poll < 5; ++poll) {
      for (const auto& quote : market.poll().quotes) {
        const double ratio = static_cast<double>(quote.price.cents) / 100000.0;
        if (std::abs(ratio - 5.0) < 0.05) {
          ++high;
        } else if (std::abs(ratio - 0.2) < 0.002) {
          ++low;
        } else {
          CPPUNIT_ASSERT_DOUBLES_EQUAL(1.0, ratio, 0.01);
          ++normal;
        }
      }
    }
    // 5,000 rows at 2 %: about 100 outliers, both ways.
    CPPUNIT_ASSERT(high > 20 && low > 20 && high + low < 200);
    CPPUNIT_ASSERT(normal > 4800);
    // The walk is not disturbed: without outliers the next poll is back at the seed price.
    Market clean({{"coverage", "1"}, {"jump_probability", "0"}}, seed(1000, 100000, 0.002));
    for (const auto& quote : clean.poll().quotes) {
      CPPUNIT_ASSERT_DOUBLES_EQUAL(100000.0, static_cast<double>(quote.price.cents), 1000.0);
    }
  }

  void lagStampsRowsInThePast() {
    Market market({{"coverage", "1"}, {"lag_seconds", "900"}}, seed(20, 500, 0.05));
    const auto report = market.poll();
    CPPUNIT_ASSERT_EQUAL(std::size_t(20), report.quotes.size());
    for (const auto& quote : report.quotes) {
      CPPUNIT_ASSERT(quote.observed_at.has_value());
      CPPUNIT_ASSERT_EQUAL(market.host.now_millis / 1000 - 900, *quote.observed_at);
    }
  }

  void outageStopsAnsweringAfterSomePolls() {
    Market market({{"coverage", "1"}, {"outage_after_polls", "2"}}, seed(20, 500, 0.05));
    for (int poll = 0; poll < 2; ++poll) {
      const auto report = market.poll();
      CPPUNIT_ASSERT(report.status.isOk());
      CPPUNIT_ASSERT_EQUAL(std::size_t(20), report.quotes.size());
    }
    for (int poll = 0; poll < 3; ++poll) {
      const auto report = market.poll();
      CPPUNIT_ASSERT(report.status.code() == sdk::Status::Code::kUnavailable);
      CPPUNIT_ASSERT(report.status.message().find("outage") != std::string::npos);
      CPPUNIT_ASSERT(report.quotes.empty());
    }
    Market never({{"coverage", "1"}, {"outage_after_polls", "0"}}, seed(20, 500, 0.05));
    CPPUNIT_ASSERT(!never.poll().status.isOk());
  }

  void variantsNameEveryPhase() {
    std::vector<SeedEntry> entries = seed(10, 500, 0.05);
    entries.push_back({"★ Karambit | Doppler (Factory New)", 200000, 0.002});
    entries.push_back({"Glock-18 | Gamma Doppler (Minimal Wear)", 10000, 0.002});
    // A tiny coverage: the phased items are listed whatever their rank.
    Market market({{"coverage", "0.000001"}, {"variants", "true"}, {"jump_probability", "0"}},
                  entries);
    const auto report = market.poll();
    std::map<std::string, std::int64_t> karambit;
    std::set<std::string> glock;
    for (const auto& quote : report.quotes) {
      CPPUNIT_ASSERT(!quote.variant.empty());
      if (quote.market_hash_name == "★ Karambit | Doppler (Factory New)") {
        karambit[quote.variant] = quote.price.cents;
      } else {
        CPPUNIT_ASSERT_EQUAL(std::string("Glock-18 | Gamma Doppler (Minimal Wear)"),
                             quote.market_hash_name);
        glock.insert(quote.variant);
      }
    }
    CPPUNIT_ASSERT_EQUAL(std::size_t(7), karambit.size());
    CPPUNIT_ASSERT_EQUAL(std::size_t(5), glock.size());
    CPPUNIT_ASSERT(glock.count("Emerald") == 1);
    for (const auto& [variant, cents] : karambit) {
      CPPUNIT_ASSERT(sdk::variantNamed(variant).has_value());
      CPPUNIT_ASSERT_DOUBLES_EQUAL(200000.0 * variantFactor(variant), static_cast<double>(cents),
                                   200000.0 * variantFactor(variant) * 0.01);
    }
    // Phase 3 is the cheapest, so the base (the lowest variant) is priced as Phase 3.
    for (const auto& [variant, cents] : karambit) CPPUNIT_ASSERT(cents >= karambit["Phase 3"]);
    CPPUNIT_ASSERT(karambit["Ruby"] > 4 * karambit["Phase 1"]);
  }

  void withoutVariantsDopplerIsOneRow() {
    std::vector<SeedEntry> entries = {{"★ Karambit | Doppler (Factory New)", 200000, 0.002}};
    Market market({{"coverage", "1"}}, entries);
    const auto report = market.poll();
    CPPUNIT_ASSERT_EQUAL(std::size_t(1), report.quotes.size());
    CPPUNIT_ASSERT(report.quotes[0].variant.empty());
    CPPUNIT_ASSERT_EQUAL(std::string("Doppler"),
                         std::string(finishOf("★ Karambit | Doppler (Factory New)")));
    CPPUNIT_ASSERT_EQUAL(std::string("Gamma Doppler"),
                         std::string(finishOf("Glock-18 | Gamma Doppler (Minimal Wear)")));
    CPPUNIT_ASSERT(finishOf("Sticker Capsule").empty());
  }

  void refusesBadMarketKeys() {
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"coverage", "0"},
        {"coverage", "1.5"},
        {"coverage", "x"},
        {"price_offset_percent", "-95"},
        {"price_offset_percent", "1000"},
        {"price_offset_percent", "4%"},
        {"outlier_probability", "1.1"},
        {"outlier_probability", "-0.1"},
        {"lag_seconds", "-1"},
        {"lag_seconds", "1.5"},
        {"lag_seconds", "99999999"},
        {"variants", "yes"},
        {"dispersion_percent", "-1"},
        {"outage_after_polls", "-1"},
        {"outage_after_polls", "x"},
        {"dispersion_percent", "60"}};
    for (const auto& [key, value] : cases) {
      MockHost host;
      host.settings["seed_file"] = "unused.tsv";
      host.settings[key] = value;
      try {
        readSettings(host.config());
        CPPUNIT_FAIL("accepted " + key + "=" + value);
      } catch (const std::runtime_error& e) {
        CPPUNIT_ASSERT_MESSAGE(e.what(), std::string(e.what()).find(key) != std::string::npos);
      }
    }
    MockHost host;
    host.settings["seed_file"] = "unused.tsv";
    host.settings["coverage"] = "0.5";
    host.settings["price_offset_percent"] = "-3.5";
    host.settings["outlier_probability"] = "0.001";
    host.settings["lag_seconds"] = "600";
    host.settings["variants"] = "true";
    const auto settings = readSettings(host.config());
    CPPUNIT_ASSERT(settings.coverage && *settings.coverage == 0.5);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(-3.5, settings.price_offset_percent, 1e-12);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.001, settings.outlier_probability, 1e-12);
    CPPUNIT_ASSERT_EQUAL(std::int64_t(600), settings.lag_seconds);
    CPPUNIT_ASSERT(settings.variants);
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(SimulatedSourceMarketTest);
