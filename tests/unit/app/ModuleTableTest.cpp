// The module table: each module once, rates first and ingest last (the start order of
// docs/architecture.md, which must list the table's names in its order), every factory
// present, and the instance sections' tables read as the hand-written readers did.
#include "app/ModuleTable.hpp"
#include "app/SourceOptions.hpp"
#include "common/ConfigError.hpp"
#include "plugin/ReservedKeys.hpp"
#include "rates/RatesOptions.hpp"

#include <cppunit/extensions/HelperMacros.h>

#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

using namespace skinpulse;

namespace {

std::vector<std::string> tableNames() {
  std::vector<std::string> names;
  for (const auto& entry : app::moduleTable()) names.emplace_back(entry.name);
  return names;
}

std::string trim(const std::string& text) {
  const auto first = text.find_first_not_of(" \t");
  if (first == std::string::npos) return "";
  return text.substr(first, text.find_last_not_of(" \t") - first + 1);
}

// The names of the code block that follows the marker comment in docs/architecture.md.
std::vector<std::string> documentedOrder() {
  std::ifstream doc(std::string(SKINPULSE_SOURCE_DIR) + "/docs/architecture.md");
  std::string line;
  bool marked = false;
  bool inside = false;
  std::string joined;
  while (std::getline(doc, line)) {
    if (!marked) {
      marked = line.find("ModuleTableTest.cpp checks it") != std::string::npos;
      continue;
    }
    if (line.rfind("```", 0) == 0) {
      if (inside) break;
      inside = true;
      continue;
    }
    if (inside) joined += " " + line + " ";
  }
  std::vector<std::string> names;
  const std::string arrow = "→";
  std::size_t from = 0;
  while (true) {
    const auto at = joined.find(arrow, from);
    const std::string name =
        trim(joined.substr(from, at == std::string::npos ? std::string::npos : at - from));
    if (!name.empty()) names.push_back(name);
    if (at == std::string::npos) break;
    from = at + arrow.size();
  }
  return names;
}

std::string joinedNames(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& name : names) out += (out.empty() ? "" : " → ") + name;
  return out;
}

common::OptionReader readerOf(common::ConfigTree& tree, const std::string& ini) {
  tree.loadIniText(ini, "test.ini");
  return common::OptionReader(tree);
}

}  // namespace

class ModuleTableTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(ModuleTableTest);
  CPPUNIT_TEST(everyModuleOnceRatesFirstIngestLast);
  CPPUNIT_TEST(architectureDocumentListsTheTableInOrder);
  CPPUNIT_TEST(everyOptionGroupHasKeysAndATitle);
  CPPUNIT_TEST(sourceSectionsKeepTheDaemonsKeysFromThePlugin);
  CPPUNIT_TEST(instanceDefaultsAreTheTablesFallbacks);
  CPPUNIT_TEST(instanceKeysAreReservedOrThePricePolicys);
  CPPUNIT_TEST(ratesSectionsNeedAPluginAndARange);
  CPPUNIT_TEST_SUITE_END();

 public:
  void everyModuleOnceRatesFirstIngestLast() {
    const auto names = tableNames();
    CPPUNIT_ASSERT_EQUAL(names.size(), std::set<std::string>(names.begin(), names.end()).size());
    CPPUNIT_ASSERT_EQUAL(std::string("rates"), names.front());
    CPPUNIT_ASSERT_EQUAL(std::string("ingest"), names.back());
    for (const auto& entry : app::moduleTable()) CPPUNIT_ASSERT(entry.build != nullptr);
  }

  void architectureDocumentListsTheTableInOrder() {
    CPPUNIT_ASSERT_EQUAL(joinedNames(tableNames()), joinedNames(documentedOrder()));
  }

  void everyOptionGroupHasKeysAndATitle() {
    std::set<std::string> titles;
    for (const auto& group : app::optionGroups()) {
      CPPUNIT_ASSERT_MESSAGE(group.title, !group.specs.empty());
      CPPUNIT_ASSERT_MESSAGE(group.title, titles.insert(group.title).second);
    }
    CPPUNIT_ASSERT(titles.count("HTTP server") == 1);
    CPPUNIT_ASSERT(titles.count("Admin listener") == 1);
  }

  void sourceSectionsKeepTheDaemonsKeysFromThePlugin() {
    common::ConfigTree tree;
    const auto read = readerOf(tree,
                               "[source.steam]\nplugin = steam_market\nenabled = false\n"
                               "interval_seconds = 5\nfee_percent = 2.5\nfresh_seconds = 600\n"
                               "items = A, B\nuser_agent = x\n");
    const app::SourceOptions source = app::readSourceOptions(read, "source.steam");
    CPPUNIT_ASSERT_EQUAL(std::string("steam"), source.name);
    CPPUNIT_ASSERT_EQUAL(std::string("steam_market"), source.plugin);
    CPPUNIT_ASSERT(!source.enabled);
    CPPUNIT_ASSERT_EQUAL(5, source.interval_seconds);
    CPPUNIT_ASSERT_EQUAL(30, source.timeout_seconds);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(2.5, source.fee_percent, 1e-9);
    CPPUNIT_ASSERT_EQUAL(600, source.fresh_seconds);
    // The plugin's keys, and the reserved ones the plugin set handles (user_agent), pass.
    const std::map<std::string, std::string> keys = {{"items", "A, B"}, {"user_agent", "x"}};
    CPPUNIT_ASSERT(source.keys == keys);
  }

  void instanceDefaultsAreTheTablesFallbacks() {
    common::ConfigTree tree;
    const auto read = readerOf(tree, "[source.a]\nplugin = p\n[rates.b]\nplugin = ecb\n");
    const app::SourceOptions source = app::readSourceOptions(read, "source.a");
    CPPUNIT_ASSERT(source.enabled);
    CPPUNIT_ASSERT_EQUAL(60, source.interval_seconds);
    CPPUNIT_ASSERT_EQUAL(0, source.fresh_seconds);
    const rates::RatesOptions rates = rates::readRatesOptions(read, "rates.b");
    CPPUNIT_ASSERT(rates.enabled);
    CPPUNIT_ASSERT_EQUAL(21600, rates.interval_seconds);
    CPPUNIT_ASSERT(rates.keys.empty());
    // The rows say the same as the defaults above.
    for (const auto& row : app::sourceOptionTable()) {
      const std::string key = row.spec.key;
      if (key == "source.NAME.enabled")
        CPPUNIT_ASSERT_EQUAL(std::string("true"), std::string(row.spec.fallback));
      if (key == "source.NAME.interval_seconds")
        CPPUNIT_ASSERT_EQUAL(std::string("60"), std::string(row.spec.fallback));
      if (key == "source.NAME.timeout_seconds")
        CPPUNIT_ASSERT_EQUAL(std::string("30"), std::string(row.spec.fallback));
    }
    for (const auto& row : rates::ratesOptionTable()) {
      const std::string key = row.spec.key;
      if (key == "rates.NAME.interval_seconds")
        CPPUNIT_ASSERT_EQUAL(std::string("21600"), std::string(row.spec.fallback));
    }
  }

  void instanceKeysAreReservedOrThePricePolicys() {
    // plugin/ReservedKeys.hpp stays the one list of the generic instance keys: a table row
    // is one of them, or a key of the price policy (never passed to a plugin either).
    auto suffix = [](const char* key) {
      const std::string text = key;
      return text.substr(text.rfind('.') + 1);
    };
    for (const auto& row : app::sourceOptionTable()) {
      const std::string key = suffix(row.spec.key);
      CPPUNIT_ASSERT_MESSAGE(
          key, plugin::isReservedKey(key) || key == "fee_percent" || key == "fresh_seconds");
    }
    for (const auto& row : rates::ratesOptionTable()) {
      CPPUNIT_ASSERT_MESSAGE(row.spec.key, plugin::isReservedKey(suffix(row.spec.key)));
    }
  }

  void ratesSectionsNeedAPluginAndARange() {
    common::ConfigTree tree;
    const auto read = readerOf(
        tree, "[rates.x]\nenabled = true\n[rates.y]\nplugin = ecb\ninterval_seconds = 0\n");
    CPPUNIT_ASSERT_THROW(rates::readRatesOptions(read, "rates.x"), common::ConfigError);
    CPPUNIT_ASSERT_THROW(rates::readRatesOptions(read, "rates.y"), common::ConfigError);
    CPPUNIT_ASSERT_THROW(app::readSourceOptions(read, "source.Bad Name"), common::ConfigError);
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(ModuleTableTest);
