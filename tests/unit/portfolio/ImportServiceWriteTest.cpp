// ImportService::write (docs/api.md §23): lots matched to catalogue items with their
// applied stickers and charms, one account replaced at a time, departures priced.

#include "MemorySharedStore.hpp"
#include "catalog/Catalog.hpp"
#include "portfolio/ImportLock.hpp"
#include "portfolio/ImportService.hpp"
#include "portfolio/ImportThrottle.hpp"
#include "store/Database.hpp"

#include <cppunit/extensions/HelperMacros.h>

using namespace skinpulse;
using namespace skinpulse::portfolio;
using skinpulse::test::MemorySharedStore;

namespace {

constexpr std::int64_t kWriteNow = 1'800'000'000;
const std::string kMainAccount = "76561197960287930";
const std::string kStorageAccount = "76561197960287931";
const std::string kAk = "AK-47 | Redline (Field-Tested)";
const std::string kStickerA = "Sticker | Team Spirit | Copenhagen 2024";
const std::string kCharm = "Charm | Lil' Ava";

/// The write path never fetches.
class NoInventory final : public InventorySource {
 public:
  Inventory fetch(const std::string&, net::RequestBudget::Priority) override {
    throw std::logic_error("write() must not fetch");
  }
};

}  // namespace

class ImportServiceWriteTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(ImportServiceWriteTest);
  CPPUNIT_TEST(matchesAppliedItemsAndKeepsUnknownNames);
  CPPUNIT_TEST(replacesOneAccountOnly);
  CPPUNIT_TEST(departuresCarryTheUnitPriceOfTheImport);
  CPPUNIT_TEST_SUITE_END();

 public:
  void setUp() override {
    db_ = store::openDatabase("sqlite://:memory:", SKINPULSE_SHARE_DIR "/sql");
    db_->catalog().seed({{kAk, "Rifle", "Redline", "Classified", false, ""},
                         {kStickerA, "Sticker", "Team Spirit", "High Grade", false, ""},
                         {kCharm, "Charm", "Lil' Ava", "Remarkable", false, ""}},
                        kWriteNow);
    catalog_.reset(db_->catalog().allItems());
    user_ = db_->users().createUser("w@example.com", "W", "", kWriteNow).id;
    // write() stores only for accounts the user has linked (replaceLinkedHoldings).
    CPPUNIT_ASSERT(db_->users().linkGameId({user_, kMainAccount, kWriteNow}));
    CPPUNIT_ASSERT(db_->users().linkGameId({user_, kStorageAccount, kWriteNow}));
    store_ = std::make_unique<MemorySharedStore>();
    lock_ = std::make_unique<ImportLock>(*store_, [] { return std::string("t"); });
    throttle_ = std::make_unique<ImportThrottle>(*store_, ImportThrottleOptions{},
                                                 [this] { return store_->now_ms; });
    imports_ =
        std::make_unique<ImportService>(db_->users(), db_->holdings(), catalog_, inventory_, *lock_,
                                        *throttle_, ImportOptions{}, [this] { return now_; });
  }

  void matchesAppliedItemsAndKeepsUnknownNames() {
    Inventory inventory;
    inventory.add({kAk}, 2);
    const std::vector<AppliedAsset> crafted{{"sticker", 0, kStickerA},
                                            {"sticker", 1, kStickerA},
                                            {"sticker", 2, "Sticker | Not In Catalogue"},
                                            {"charm", 0, kCharm}};
    inventory.add({kAk, std::nullopt, crafted}, 1);
    inventory.add({kAk, 7, crafted}, 1);  // a paint index that names no variant: same holding
    const auto outcome = imports_->write(user_, kMainAccount, inventory);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{4}, outcome.imported_units);
    CPPUNIT_ASSERT_EQUAL(std::size_t{2}, outcome.holdings);
    const auto held = db_->holdings().holdingsOf(user_);
    CPPUNIT_ASSERT_EQUAL(std::size_t{2}, held.size());
    const auto& plain = held[0].applied_key.empty() ? held[0] : held[1];
    const auto& fancy = held[0].applied_key.empty() ? held[1] : held[0];
    CPPUNIT_ASSERT_EQUAL(std::int64_t{2}, plain.quantity);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{2}, fancy.quantity);
    CPPUNIT_ASSERT_EQUAL(kMainAccount, fancy.account);
    const auto sticker_id = id(kStickerA);
    const auto charm_id = id(kCharm);
    CPPUNIT_ASSERT_EQUAL("s0=" + std::to_string(sticker_id) + ";s1=" + std::to_string(sticker_id) +
                             ";s2=n:Sticker | Not In Catalogue;c0=" + std::to_string(charm_id),
                         fancy.applied_key);
    CPPUNIT_ASSERT_EQUAL(std::size_t{4}, fancy.applied.size());
    CPPUNIT_ASSERT(fancy.applied[0].item_id == sticker_id);
    CPPUNIT_ASSERT(!fancy.applied[2].item_id);
    CPPUNIT_ASSERT_EQUAL(std::string("Sticker | Not In Catalogue"), fancy.applied[2].name);
    CPPUNIT_ASSERT((fancy.applied[3] == store::AppliedRecord{"charm", 0, kCharm, charm_id}));
  }

  void replacesOneAccountOnly() {
    Inventory main;
    main.add({kAk}, 1);
    Inventory storage;
    storage.add({kAk}, 5);
    imports_->write(user_, kMainAccount, main);
    now_ += 10;
    imports_->write(user_, kStorageAccount, storage);
    now_ += 10;
    imports_->write(user_, kMainAccount, Inventory{});  // main emptied
    const auto held = db_->holdings().holdingsOf(user_);
    CPPUNIT_ASSERT_EQUAL(std::size_t{1}, held.size());
    CPPUNIT_ASSERT_EQUAL(kStorageAccount, held[0].account);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{5}, held[0].quantity);
    const auto at = db_->holdings().importedAtByAccount(user_);
    CPPUNIT_ASSERT_EQUAL(now_, at.at(kMainAccount));
    CPPUNIT_ASSERT_EQUAL(now_ - 10, at.at(kStorageAccount));
  }

  void departuresCarryTheUnitPriceOfTheImport() {
    std::vector<std::int64_t> asked;
    imports_->setUnitPrices([&](std::int64_t item_id) {
      asked.push_back(item_id);
      return item_id == id(kAk) ? 4321 : 0;
    });
    Inventory before;
    before.add({kAk}, 3);
    imports_->write(user_, kMainAccount, before);
    Inventory after;
    after.add({kAk}, 1);
    now_ += 60;
    imports_->write(user_, kMainAccount, after);
    const auto left = db_->holdings().departuresOf(user_);
    CPPUNIT_ASSERT_EQUAL(std::size_t{1}, left.size());
    CPPUNIT_ASSERT_EQUAL(std::int64_t{2}, left[0].quantity);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{4321}, left[0].last_price);
    CPPUNIT_ASSERT_EQUAL(now_, left[0].left_at);
    CPPUNIT_ASSERT_EQUAL(kMainAccount, left[0].account);
    CPPUNIT_ASSERT(!asked.empty());
  }

 private:
  std::int64_t id(const std::string& name) {
    return catalog_.snapshot()->findByName(name)->record.id;
  }

  std::unique_ptr<store::Database> db_;
  catalog::Catalog catalog_;
  std::string user_;
  std::unique_ptr<MemorySharedStore> store_;
  std::unique_ptr<ImportLock> lock_;
  std::unique_ptr<ImportThrottle> throttle_;
  NoInventory inventory_;
  std::unique_ptr<ImportService> imports_;
  std::int64_t now_ = kWriteNow + 100;
};

CPPUNIT_TEST_SUITE_REGISTRATION(ImportServiceWriteTest);
