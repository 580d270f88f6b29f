// Inventory lots (docs/api.md §23): assets alike in name, paint index and applied list are
// one lot; any difference in what is applied makes another.

#include "portfolio/InventoryFetcher.hpp"

#include <cppunit/extensions/HelperMacros.h>

using namespace skinpulse::portfolio;

class InventoryFetcherLotsTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(InventoryFetcherLotsTest);
  CPPUNIT_TEST(identicalAssetsStayOneLot);
  CPPUNIT_TEST(whatIsAppliedSplitsLots);
  CPPUNIT_TEST(unitsOfSumsEveryLotOfAName);
  CPPUNIT_TEST_SUITE_END();

 public:
  void identicalAssetsStayOneLot() {
    Inventory inventory;
    const InventoryLot crafted{kAk, std::nullopt, {sticker(0, "Sticker | A"), charm()}};
    inventory.add(crafted, 1);
    inventory.add(crafted, 1);
    inventory.add({kAk}, 3);
    inventory.add({kAk}, 2);
    CPPUNIT_ASSERT_EQUAL(std::size_t{2}, inventory.units_by_lot.size());
    CPPUNIT_ASSERT_EQUAL(std::int64_t{2}, inventory.units_by_lot.at(crafted));
    CPPUNIT_ASSERT_EQUAL(std::int64_t{5}, inventory.units_by_lot.at(InventoryLot{kAk}));
  }

  void whatIsAppliedSplitsLots() {
    Inventory inventory;
    inventory.add({kAk, std::nullopt, {sticker(0, "Sticker | A")}}, 1);
    inventory.add({kAk, std::nullopt, {sticker(1, "Sticker | A")}}, 1);  // another slot
    inventory.add({kAk, std::nullopt, {sticker(0, "Sticker | B")}}, 1);  // another sticker
    inventory.add({kAk, std::nullopt, {sticker(0, "Sticker | A"), charm()}}, 1);
    inventory.add({kAk, 44, {sticker(0, "Sticker | A")}}, 1);  // another paint index
    CPPUNIT_ASSERT_EQUAL(std::size_t{5}, inventory.units_by_lot.size());
    // The order is strict: no lot is less than itself, and a < b excludes b < a.
    for (const auto& [a, ua] : inventory.units_by_lot) {
      CPPUNIT_ASSERT(!(a < a));
      for (const auto& [b, ub] : inventory.units_by_lot) {
        if (!(a == b)) CPPUNIT_ASSERT((a < b) != (b < a));
      }
    }
  }

  void unitsOfSumsEveryLotOfAName() {
    Inventory inventory;
    inventory.add({"AK-47 | A"}, 1);
    inventory.add({kAk, 7}, 2);
    inventory.add({kAk, std::nullopt, {charm()}}, 3);
    inventory.add({"AK-47 | Z"}, 4);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{5}, inventory.unitsOf(kAk));
    CPPUNIT_ASSERT_EQUAL(std::int64_t{0}, inventory.unitsOf("Nothing"));
  }

 private:
  static constexpr const char* kAk = "AK-47 | Redline (Field-Tested)";
  static AppliedAsset sticker(int slot, const std::string& name) {
    return AppliedAsset{"sticker", slot, name};
  }
  static AppliedAsset charm() { return AppliedAsset{"charm", 0, "Charm | Lil' Ava"}; }
};

CPPUNIT_TEST_SUITE_REGISTRATION(InventoryFetcherLotsTest);
