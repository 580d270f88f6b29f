// The committed demo inventories (share/simulated/demo-inventory.json and the second
// development account's demo-inventory-storage.json) are inventory pages of real catalogue
// items, a Doppler phase and applied stickers and a charm among them, and the module
// refuses a bad file.
#include "devmode/DevModule.hpp"

#include <Poco/JSON/Parser.h>
#include <cppunit/extensions/HelperMacros.h>

#include <fstream>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>

using skinpulse::devmode::checkInventoryPage;

namespace {

std::set<std::string> catalogueNames() {
  std::set<std::string> catalogue;
  std::ifstream items(std::string(SKINPULSE_SHARE_DIR) + "/catalog/items.jsonl");
  Poco::JSON::Parser parser;
  for (std::string line; std::getline(items, line);) {
    parser.reset();
    catalogue.insert(parser.parse(line).extract<Poco::JSON::Object::Ptr>()->getValue<std::string>(
        "market_hash_name"));
  }
  return catalogue;
}

std::string readAll(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

class DevModuleDemoInventoryTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(DevModuleDemoInventoryTest);
  CPPUNIT_TEST(committedInventoryIsRealItems);
  CPPUNIT_TEST(secondAccountsInventoryIsRealItems);
  CPPUNIT_TEST(refusesWhatIsNotAnInventoryPage);
  CPPUNIT_TEST_SUITE_END();

 public:
  void committedInventoryIsRealItems() {
    const std::string path = std::string(SKINPULSE_SHARE_DIR) + "/simulated/demo-inventory.json";
    const std::string body = readAll(path);
    checkInventoryPage(body, path);
    std::set<std::string> catalogue;
    std::ifstream items(std::string(SKINPULSE_SHARE_DIR) + "/catalog/items.jsonl");
    Poco::JSON::Parser parser;
    for (std::string line; std::getline(items, line);) {
      parser.reset();
      catalogue.insert(parser.parse(line).extract<Poco::JSON::Object::Ptr>()->getValue<std::string>(
          "market_hash_name"));
    }
    parser.reset();
    const auto root = parser.parse(body).extract<Poco::JSON::Object::Ptr>();
    const auto descriptions = root->getArray("descriptions");
    CPPUNIT_ASSERT(descriptions->size() >= 5);
    for (std::size_t i = 0; i < descriptions->size(); ++i) {
      const auto name = descriptions->getObject(i)->getValue<std::string>("market_hash_name");
      CPPUNIT_ASSERT_MESSAGE(name, catalogue.count(name) == 1);
    }
    // A Doppler knife with its paint index (419 = Phase 2), so the import stores the phase.
    const auto properties = root->getArray("asset_properties");
    bool phase = false;
    for (std::size_t i = 0; i < properties->size(); ++i) {
      const auto list = properties->getObject(i)->getArray("asset_properties");
      for (std::size_t j = 0; j < list->size(); ++j) {
        const auto property = list->getObject(j);
        phase = phase || (property->getValue<int>("propertyid") == 7 &&
                          property->getValue<std::string>("int_value") == "419");
      }
    }
    CPPUNIT_ASSERT(phase);
  }

  void secondAccountsInventoryIsRealItems() {
    const std::string path =
        std::string(SKINPULSE_SHARE_DIR) + "/simulated/demo-inventory-storage.json";
    const std::string body = readAll(path);
    checkInventoryPage(body, path);
    const auto catalogue = catalogueNames();
    Poco::JSON::Parser parser;
    const auto descriptions =
        parser.parse(body).extract<Poco::JSON::Object::Ptr>()->getArray("descriptions");
    CPPUNIT_ASSERT(descriptions->size() >= 3);
    for (std::size_t i = 0; i < descriptions->size(); ++i) {
      const auto name = descriptions->getObject(i)->getValue<std::string>("market_hash_name");
      CPPUNIT_ASSERT_MESSAGE(name, catalogue.count(name) == 1);
    }
    // The older block format (no titles) is in this one; the first file has the current one.
    CPPUNIT_ASSERT(body.find("Sticker: GODSENT | Atlanta 2017, Knife's Edge") != std::string::npos);
    CPPUNIT_ASSERT(readAll(std::string(SKINPULSE_SHARE_DIR) + "/simulated/demo-inventory.json")
                       .find("title=\\\"Charm: Lil' Crass\\\"") != std::string::npos);
  }

  void refusesWhatIsNotAnInventoryPage() {
    for (const std::string bad : {"", "null", "[]", "{\"assets\": [], \"success\": 1}",
                                  "{\"assets\": [], \"descriptions\": [], \"success\": 0}",
                                  "{\"assets\": [], \"descriptions\": [], \"success\": 1"}) {
      CPPUNIT_ASSERT_THROW_MESSAGE(bad, checkInventoryPage(bad, "test.json"), std::runtime_error);
    }
    checkInventoryPage("{\"assets\": [], \"descriptions\": [], \"success\": 1}", "test.json");
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(DevModuleDemoInventoryTest);
