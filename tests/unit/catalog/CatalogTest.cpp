#include "catalog/Catalog.hpp"
#include "catalog/CatalogFile.hpp"

#include <cppunit/extensions/HelperMacros.h>

#include <fstream>

using namespace skinpulse;

namespace {

store::ItemRecord item(std::int64_t id, const std::string& name, const std::string& type,
                       const std::string& rarity, bool stattrak) {
  return store::ItemRecord{id, name, type, "skin", rarity, stattrak, "", 1700000000};
}

}  // namespace

class CatalogTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(CatalogTest);
  CPPUNIT_TEST(unfilteredPagesAreById);
  CPPUNIT_TEST(filtersCombineAndCountBeforePaging);
  CPPUNIT_TEST(searchIsUnicodeCaseInsensitive);
  CPPUNIT_TEST(lookupsAndSdkView);
  CPPUNIT_TEST(unfilteredPagesAreRenderedOnceAndMatchTheQuery);
  CPPUNIT_TEST(readsTheShippedCatalogue);
  CPPUNIT_TEST(refusesMalformedFiles);
  CPPUNIT_TEST_SUITE_END();

  catalog::Catalog catalog_;

 public:
  void setUp() override {
    catalog_.reset(
        {item(3, "AK-47 | Redline (Field-Tested)", "AK-47", "Classified", false),
         item(1, "StatTrak™ AK-47 | Redline (Field-Tested)", "AK-47", "Classified", true),
         item(2, "★ Karambit | Doppler (Factory New)", "Karambit", "Covert", false),
         item(7, "Recoil Case", "Container", "Base Grade", false),
         item(9, "StatTrak™ M4A4 | 龍王 (Dragon King) (Field-Tested)", "M4A4", "Classified",
              true)});
  }

  void unfilteredPagesAreById() {
    const auto snap = catalog_.snapshot();
    catalog::ItemQuery query;
    query.limit = 2;
    query.offset = 1;
    const auto page = catalog::Catalog::query(*snap, query);
    CPPUNIT_ASSERT_EQUAL(std::size_t(5), page.total);
    CPPUNIT_ASSERT_EQUAL(std::size_t(2), page.items.size());
    CPPUNIT_ASSERT_EQUAL(INT64_C(2), page.items[0]->record.id);
    CPPUNIT_ASSERT_EQUAL(INT64_C(3), page.items[1]->record.id);
    query.offset = 10;
    CPPUNIT_ASSERT(catalog::Catalog::query(*snap, query).items.empty());
  }

  void filtersCombineAndCountBeforePaging() {
    const auto snap = catalog_.snapshot();
    catalog::ItemQuery query;
    query.rarity = "classified";
    query.stattrak = true;
    query.limit = 1;
    const auto page = catalog::Catalog::query(*snap, query);
    CPPUNIT_ASSERT_EQUAL(std::size_t(2), page.total);
    CPPUNIT_ASSERT_EQUAL(INT64_C(1), page.items.at(0)->record.id);
    query.offset = 1;
    CPPUNIT_ASSERT_EQUAL(INT64_C(9), catalog::Catalog::query(*snap, query).items.at(0)->record.id);
    catalog::ItemQuery byType;
    byType.weapon_type = "ak-47";
    CPPUNIT_ASSERT_EQUAL(std::size_t(2), catalog::Catalog::query(*snap, byType).total);
  }

  void searchIsUnicodeCaseInsensitive() {
    const auto snap = catalog_.snapshot();
    catalog::ItemQuery query;
    query.q = catalog::lowerUtf8("STATTRAK™ ak");
    CPPUNIT_ASSERT_EQUAL(std::size_t(1), catalog::Catalog::query(*snap, query).total);
    query.q = catalog::lowerUtf8("龍王");
    CPPUNIT_ASSERT_EQUAL(INT64_C(9), catalog::Catalog::query(*snap, query).items.at(0)->record.id);
    query.q = catalog::lowerUtf8("★ KARAMBIT");
    CPPUNIT_ASSERT_EQUAL(INT64_C(2), catalog::Catalog::query(*snap, query).items.at(0)->record.id);
  }

  void lookupsAndSdkView() {
    CPPUNIT_ASSERT_EQUAL(INT64_C(7), catalog_.findByName("Recoil Case")->id);
    CPPUNIT_ASSERT(!catalog_.findByName("recoil case"));
    CPPUNIT_ASSERT_EQUAL(std::string("Covert"), catalog_.findById(2)->rarity);
    CPPUNIT_ASSERT(!catalog_.findById(4));
    std::vector<std::int64_t> ids;
    catalog_.forEach([&](const skinpulse::sdk::CatalogItem& i) {
      ids.push_back(i.id);
      return ids.size() < 3;
    });
    CPPUNIT_ASSERT((std::vector<std::int64_t>{1, 2, 3}) == ids);
    const auto* view = catalog_.snapshot()->findById(9);
    CPPUNIT_ASSERT(view->json.find("\"market_hash_name\":\"StatTrak™ M4A4 | 龍王") !=
                   std::string::npos);
    CPPUNIT_ASSERT(view->json.find("\"created_at\":\"2023-11-14T22:13:20Z\"") != std::string::npos);
  }

  void unfilteredPagesAreRenderedOnceAndMatchTheQuery() {
    const auto snap = catalog_.snapshot();
    const auto first = snap->unfilteredPage(1, 2);
    CPPUNIT_ASSERT(first == snap->unfilteredPage(1, 2));  // shared, not re-rendered
    catalog::ItemQuery query;
    query.offset = 1;
    query.limit = 2;
    CPPUNIT_ASSERT_EQUAL(catalog::renderItemArray(catalog::Catalog::query(*snap, query).items),
                         *first);
    CPPUNIT_ASSERT(first->front() == '[' && first->find("\"id\":2,") != std::string::npos);
    CPPUNIT_ASSERT_EQUAL(std::string("[]"), *snap->unfilteredPage(100, 5));
    // A new catalogue is a new snapshot: nothing stale is served.
    catalog_.reset({item(1, "Recoil Case", "Container", "Base Grade", false)});
    CPPUNIT_ASSERT(catalog_.snapshot()->unfilteredPage(1, 2)->find("id") == std::string::npos);
  }

  void readsTheShippedCatalogue() {
    const auto entries = catalog::readCatalogFile(SKINPULSE_SHARE_DIR "/catalog/items.jsonl");
    CPPUNIT_ASSERT(entries.size() > 34000);
    bool sawKnife = false;
    for (const auto& entry : entries) {
      if (entry.market_hash_name == "★ StatTrak™ Karambit | Autotronic (Field-Tested)") {
        sawKnife = true;
        CPPUNIT_ASSERT(entry.stattrak);
        CPPUNIT_ASSERT_EQUAL(std::string("Karambit"), entry.weapon_type);
      }
    }
    CPPUNIT_ASSERT(sawKnife);
  }

  void refusesMalformedFiles() {
    const std::string path = "/tmp/skinpulse-catalog-test.jsonl";
    {
      std::ofstream out(path);
      out << R"({"market_hash_name":"A"})"
          << "\n"
          << R"({"market_hash_name":"A"})"
          << "\n";
    }
    try {
      catalog::readCatalogFile(path);
      CPPUNIT_FAIL("duplicate accepted");
    } catch (const std::runtime_error& error) {
      CPPUNIT_ASSERT(std::string(error.what()).find(":2") != std::string::npos);
    }
    {
      std::ofstream out(path);
      out << "{not json\n";
    }
    CPPUNIT_ASSERT_THROW(catalog::readCatalogFile(path), std::runtime_error);
    CPPUNIT_ASSERT_THROW(catalog::readCatalogFile("/nonexistent.jsonl"), std::runtime_error);
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(CatalogTest);
