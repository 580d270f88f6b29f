#include "SimulatedSource.hpp"
#include "mocks/MockHost.hpp"

#include <cppunit/extensions/HelperMacros.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <unistd.h>

using skinpulse::plugins::simulated::loadSeedFile;
using skinpulse::plugins::simulated::parseSeed;
using skinpulse::plugins::simulated::SimulatedSource;
using skinpulse::test::MockHost;
namespace sdk = skinpulse::sdk;

namespace {

std::string itemName(int i) { return "Item " + std::to_string(i) + " | Test (Field-Tested)"; }

// A scratch directory removed at the end of the test.
struct TempDir {
  std::filesystem::path path;
  TempDir() {
    static int counter = 0;
    path = std::filesystem::temp_directory_path() /
           ("skinpulse-simulated-" + std::to_string(::getpid()) + "-" + std::to_string(++counter));
    std::filesystem::create_directories(path);
  }
  ~TempDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path, ignored);
  }
  std::string write(const std::string& name, const std::string& text) const {
    const auto file = path / name;
    std::ofstream(file, std::ios::binary) << text;
    return file.string();
  }
};

std::string seedText(int count, std::int64_t cents, double volatility) {
  std::ostringstream out;
  for (int i = 0; i < count; ++i) out << itemName(i) << '\t' << cents << '\t' << volatility << '\n';
  return out.str();
}

void addCatalog(MockHost& host, int count, int step = 1) {
  for (int i = 0; i < count; i += step) host.catalog_items.add(itemName(i));
}

}  // namespace

class SimulatedSourceTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(SimulatedSourceTest);
  CPPUNIT_TEST(loadsSeedFileWrittenByTest);
  CPPUNIT_TEST(pricesMoveButStayPositive);
  CPPUNIT_TEST(priceEvolvesFromPreviousValue);
  CPPUNIT_TEST(fractionIsRespected);
  CPPUNIT_TEST(onlyCatalogueItemsAreEmitted);
  CPPUNIT_TEST(deterministicWithSeed);
  CPPUNIT_TEST(observationsCarryVolumeAndTime);
  CPPUNIT_TEST(refusesMissingSeedFile);
  CPPUNIT_TEST(refusesMalformedSeedFile);
  CPPUNIT_TEST(refusesBadKeys);
  CPPUNIT_TEST(acceptsAndIgnoresUrl);
  CPPUNIT_TEST(realSeedFileParses);
  CPPUNIT_TEST_SUITE_END();

 public:
  void loadsSeedFileWrittenByTest() {
    TempDir dir;
    MockHost host;
    host.settings["seed_file"] = dir.write("seed.tsv", seedText(200, 1234, 0.03) + "\n");
    SimulatedSource source(host);
    CPPUNIT_ASSERT_EQUAL(std::size_t(200), source.itemCount());

    std::istringstream crlf("A | B (Factory New)\t5\t0.01\r\n\r\nC\t7\t0.5\r\n");
    const auto entries = parseSeed(crlf, "memory");
    CPPUNIT_ASSERT_EQUAL(std::size_t(2), entries.size());
    CPPUNIT_ASSERT_EQUAL(std::string("A | B (Factory New)"), entries[0].market_hash_name);
    CPPUNIT_ASSERT_EQUAL(std::int64_t(5), entries[0].price_cents);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.5, entries[1].volatility, 1e-12);
  }

  void pricesMoveButStayPositive() {
    TempDir dir;
    MockHost host;
    // Cheap, very volatile items with a jump on every observation: the floor is tested.
    host.settings["seed_file"] = dir.write("seed.tsv", seedText(50, 2, 0.15));
    host.settings["fraction"] = "1";
    host.settings["jump_probability"] = "1";
    host.settings["seed"] = "7";
    addCatalog(host, 50);
    SimulatedSource source(host);
    bool moved = false;
    for (int poll = 0; poll < 200; ++poll) {
      host.now_millis += 86400000;  // one day
      const auto result = source.fetch();
      CPPUNIT_ASSERT(result.status.isOk());
      CPPUNIT_ASSERT_EQUAL(std::size_t(50), result.observations.size());
      for (const auto& observation : result.observations) {
        CPPUNIT_ASSERT(observation.price.form == sdk::QuotedPrice::Form::kCents);
        CPPUNIT_ASSERT(observation.price.cents >= 1);
        if (observation.price.cents != 2) moved = true;
      }
    }
    CPPUNIT_ASSERT(moved);
  }

  void priceEvolvesFromPreviousValue() {
    TempDir dir;
    MockHost host;
    host.settings["seed_file"] = dir.write("seed.tsv", seedText(20, 100000, 0.1));
    host.settings["fraction"] = "1";
    host.settings["jump_probability"] = "0";
    host.settings["seed"] = "11";
    addCatalog(host, 20);
    SimulatedSource source(host);
    // Ten days of walking: prices leave the seed.
    std::map<std::string, std::int64_t> last;
    for (int day = 0; day < 10; ++day) {
      host.now_millis += 86400000;
      for (const auto& o : source.fetch().observations) last[o.market_hash_name] = o.price.cents;
    }
    std::size_t away = 0;
    for (const auto& [name, cents] : last) away += std::llabs(cents - 100000) > 1000 ? 1 : 0;
    CPPUNIT_ASSERT(away >= 10);
    // One more minute: each price continues from where it was (tiny step), not from the seed.
    host.now_millis += 60000;
    for (const auto& o : source.fetch().observations) {
      const double ratio =
          static_cast<double>(o.price.cents) / static_cast<double>(last[o.market_hash_name]);
      CPPUNIT_ASSERT_DOUBLES_EQUAL(1.0, ratio, 0.02);
    }
  }

  void fractionIsRespected() {
    TempDir dir;
    MockHost host;
    host.settings["seed_file"] = dir.write("seed.tsv", seedText(1000, 500, 0.03));
    host.settings["seed"] = "3";
    addCatalog(host, 1000);
    {
      SimulatedSource source(host);  // default fraction 0.02
      host.now_millis += 60000;
      CPPUNIT_ASSERT_EQUAL(std::size_t(20), source.fetch().observations.size());
    }
    host.settings["fraction"] = "0.1";
    SimulatedSource source(host);
    for (int poll = 0; poll < 5; ++poll) {
      host.now_millis += 60000;
      const auto result = source.fetch();
      CPPUNIT_ASSERT_EQUAL(std::size_t(100), result.observations.size());
      std::set<std::string> names;
      for (const auto& o : result.observations) names.insert(o.market_hash_name);
      CPPUNIT_ASSERT_EQUAL(std::size_t(100), names.size());  // no item twice in one poll
    }
    host.settings["fraction"] = "0.0001";  // rounds to zero: still one item
    SimulatedSource tiny(host);
    CPPUNIT_ASSERT_EQUAL(std::size_t(1), tiny.fetch().observations.size());
  }

  void onlyCatalogueItemsAreEmitted() {
    TempDir dir;
    MockHost host;
    host.settings["seed_file"] = dir.write("seed.tsv", seedText(1000, 500, 0.03));
    host.settings["fraction"] = "0.2";
    host.settings["seed"] = "5";
    addCatalog(host, 1000, 2);  // every other item is known
    SimulatedSource source(host);
    std::size_t total = 0;
    for (int poll = 0; poll < 10; ++poll) {
      host.now_millis += 60000;
      for (const auto& o : source.fetch().observations) {
        CPPUNIT_ASSERT(host.catalog_items.findByName(o.market_hash_name).has_value());
        ++total;
      }
    }
    // About half of 10 x 200 samples are in the catalogue.
    CPPUNIT_ASSERT(total > 800 && total < 1200);
  }

  void deterministicWithSeed() {
    TempDir dir;
    const std::string path = dir.write("seed.tsv", seedText(300, 2500, 0.05));
    auto run = [&](const std::string& seed) {
      MockHost host;
      host.settings["seed_file"] = path;
      host.settings["seed"] = seed;
      host.settings["fraction"] = "0.3";
      host.settings["jump_probability"] = "0.05";
      addCatalog(host, 300);
      SimulatedSource source(host);
      std::vector<std::pair<std::string, std::int64_t>> trace;
      for (int poll = 0; poll < 20; ++poll) {
        host.now_millis += 3600000;
        for (const auto& o : source.fetch().observations) {
          trace.emplace_back(o.market_hash_name, o.price.cents * 1000 + o.volume);
        }
      }
      return trace;
    };
    const auto a = run("42");
    const auto b = run("42");
    const auto c = run("43");
    CPPUNIT_ASSERT(!a.empty());
    CPPUNIT_ASSERT(a == b);
    CPPUNIT_ASSERT(a != c);
  }

  void observationsCarryVolumeAndTime() {
    TempDir dir;
    MockHost host;
    host.settings["seed_file"] = dir.write("seed.tsv", seedText(100, 50, 0.02));
    host.settings["fraction"] = "1";
    addCatalog(host, 100);
    SimulatedSource source(host);
    host.now_millis += 61500;
    const auto result = source.fetch();
    CPPUNIT_ASSERT_EQUAL(std::size_t(100), result.observations.size());
    for (const auto& o : result.observations) {
      CPPUNIT_ASSERT(o.volume >= 1 && o.volume <= 40);
      CPPUNIT_ASSERT(o.observed_at.has_value());
      CPPUNIT_ASSERT_EQUAL(host.now_millis / 1000, *o.observed_at);
    }
  }

  void refusesMissingSeedFile() {
    MockHost host;
    CPPUNIT_ASSERT_THROW(SimulatedSource{host}, std::runtime_error);
    host.settings["seed_file"] = "/nonexistent/skinpulse/seed.tsv";
    try {
      SimulatedSource source(host);
      CPPUNIT_FAIL("missing seed file accepted");
    } catch (const std::runtime_error& e) {
      CPPUNIT_ASSERT(std::string(e.what()).find("/nonexistent/skinpulse/seed.tsv") !=
                     std::string::npos);
    }
  }

  void refusesMalformedSeedFile() {
    TempDir dir;
    MockHost host;
    const std::string good = "A\t100\t0.02\n";
    for (const std::string& bad :
         {std::string(""), std::string("\n\n"), good + "B\t100\n", good + "B\t100\t0.02\textra\n",
          good + "B\tabc\t0.02\n", good + "B\t0\t0.02\n", good + "B\t-5\t0.02\n",
          good + "B\t1.5\t0.02\n", good + "B\t100\tx\n", good + "B\t100\t0\n",
          good + "B\t100\tnan\n", good + "B\t100\t2\n", good + "\t100\t0.02\n", good + good}) {
      host.settings["seed_file"] = dir.write("bad.tsv", bad);
      try {
        SimulatedSource source(host);
        CPPUNIT_FAIL("accepted: " + bad);
      } catch (const std::runtime_error& e) {
        const std::string message = e.what();
        CPPUNIT_ASSERT_MESSAGE(message, message.find("seed file") != std::string::npos);
        if (!bad.empty() && bad != "\n\n") {
          CPPUNIT_ASSERT_MESSAGE(message, message.find("line 2") != std::string::npos);
        }
      }
    }
  }

  void refusesBadKeys() {
    TempDir dir;
    const std::string path = dir.write("seed.tsv", seedText(10, 100, 0.02));
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"fraction", "0"},
        {"fraction", "1.5"},
        {"fraction", "-0.1"},
        {"fraction", "abc"},
        {"fraction", "nan"},
        {"jump_probability", "2"},
        {"jump_probability", ""},
        {"seed", "-1"},
        {"seed", "12x"},
        {"seed", "1.5"},
        {"seed", "99999999999999999999999"}};
    for (const auto& [key, value] : cases) {
      MockHost host;
      host.settings["seed_file"] = path;
      host.settings[key] = value;
      try {
        SimulatedSource source(host);
        CPPUNIT_FAIL("accepted " + key + "=" + value);
      } catch (const std::runtime_error& e) {
        CPPUNIT_ASSERT(std::string(e.what()).find(key) != std::string::npos);
      }
    }
  }

  void acceptsAndIgnoresUrl() {
    TempDir dir;
    MockHost host;
    host.settings["seed_file"] = dir.write("seed.tsv", seedText(10, 100, 0.02));
    host.settings["url"] = "http://127.0.0.1:9/never-used";
    host.settings["fraction"] = "1";
    addCatalog(host, 10);
    SimulatedSource source(host);
    CPPUNIT_ASSERT_EQUAL(std::size_t(10), source.fetch().observations.size());
    CPPUNIT_ASSERT(host.http_client.requests().empty());
  }

  void realSeedFileParses() {
    const std::string path = std::string(SKINPULSE_SHARE_DIR) + "/simulated/seed.tsv";
    const auto entries = loadSeedFile(path);
    CPPUNIT_ASSERT(entries.size() > 30000);
    std::ifstream in(path);
    std::size_t lines = 0;
    for (std::string line; std::getline(in, line);) ++lines;
    CPPUNIT_ASSERT_EQUAL(lines, entries.size());
    for (const auto& entry : entries) {
      CPPUNIT_ASSERT(entry.price_cents >= 1);
      CPPUNIT_ASSERT(entry.volatility >= 0.002 && entry.volatility <= 0.15);
    }
    // Well-known items are there with plausible prices.
    bool found = false;
    for (const auto& entry : entries) {
      if (entry.market_hash_name == "AK-47 | Redline (Field-Tested)") {
        found = entry.price_cents > 100 && entry.price_cents < 1000000;
      }
    }
    CPPUNIT_ASSERT(found);

    // The plugin runs on it: one known item, every seeded item sampled, one step of a minute.
    MockHost host;
    host.settings["seed_file"] = path;
    host.settings["fraction"] = "1";
    host.catalog_items.add("AK-47 | Redline (Field-Tested)");
    SimulatedSource source(host);
    host.now_millis += 60000;
    const auto result = source.fetch();
    CPPUNIT_ASSERT_EQUAL(std::size_t(1), result.observations.size());
    const auto seeded = std::find_if(entries.begin(), entries.end(), [](const auto& e) {
      return e.market_hash_name == "AK-47 | Redline (Field-Tested)";
    });
    const double ratio =
        static_cast<double>(result.observations[0].price.cents) / seeded->price_cents;
    CPPUNIT_ASSERT(ratio > 0.7 && ratio < 1.3);  // a minute's walk (a rare jump included)
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(SimulatedSourceTest);
