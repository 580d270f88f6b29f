#include "MemorySharedStore.hpp"
#include "net/RequestBudget.hpp"
#include "portfolio/ImportService.hpp"
#include "portfolio/InventoryError.hpp"
#include "store/Database.hpp"

#include <cppunit/extensions/HelperMacros.h>

#include <atomic>
#include <condition_variable>
#include <cstdio>
#include <map>
#include <optional>
#include <set>
#include <thread>

using namespace skinpulse;
using namespace skinpulse::portfolio;
using skinpulse::test::MemorySharedStore;

namespace {

constexpr const char* kPlatformId = "76561197960287930";
constexpr std::int64_t kNow = 1'800'000'000;

/// Answers fetches with a set inventory or failure; can hold a fetch until released.
class ScriptedInventory final : public InventorySource {
 public:
  Inventory inventory;
  std::optional<InventoryError> failure;
  bool budget_used_up = false;
  std::atomic<int> fetches{0};
  bool hold = false;
  /// When set, every fetch takes a token of the priority it is given first, as the
  /// platform's InventoryFetcher does per page.
  net::RequestBudget* budget = nullptr;
  /// Accounts whose inventory always fails (the platform answers 500).
  std::set<std::string> failing_ids;
  net::RequestBudget::Priority last_priority = net::RequestBudget::Priority::kUser;

  Inventory fetch(const std::string& platform_id, net::RequestBudget::Priority priority) override {
    last_priority = priority;
    if (budget != nullptr) {
      const auto admission = budget->tryAcquire(priority);
      if (!admission.granted) {
        throw net::RequestBudgetExhausted("budget used up",
                                          (admission.retry_after.count() + 999) / 1000);
      }
    }
    if (failing_ids.count(platform_id)) {
      throw InventoryError(InventoryError::Kind::kUpstream, "inventory: the platform answered 500");
    }
    if (platform_id != kPlatformId) throw std::logic_error("fetched " + platform_id);
    ++fetches;
    {
      std::unique_lock lock(mutex_);
      entered_ = true;
      changed_.notify_all();
      changed_.wait(lock, [&] { return !hold; });
    }
    if (budget_used_up) throw net::RequestBudgetExhausted("budget used up", 7);
    if (failure) throw *failure;
    return inventory;
  }
  void waitUntilEntered() {
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [&] { return entered_; });
  }
  void release() {
    std::lock_guard lock(mutex_);
    hold = false;
    changed_.notify_all();
  }

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  bool entered_ = false;
};

/// An inventory of plain lots: name → units.
Inventory plainInventory(const std::map<std::string, std::int64_t>& units_by_name) {
  Inventory inventory;
  for (const auto& [name, units] : units_by_name) inventory.add({name}, units);
  return inventory;
}

/// A HoldingStore whose writes fail, as a broken database would.
class FailingHoldings final : public store::HoldingStore {
 public:
  explicit FailingHoldings(store::HoldingStore& real) : real_(real) {}
  using store::HoldingStore::replaceHoldings;
  void replaceHoldings(const std::string&, const std::string&,
                       const std::vector<store::HoldingRecord>&,
                       const std::map<std::int64_t, std::int64_t>&, std::int64_t) override {
    throw std::runtime_error("database is locked");
  }
  bool replaceLinkedHoldings(const std::string&, const std::string&,
                             const std::vector<store::HoldingRecord>&,
                             const std::map<std::int64_t, std::int64_t>&, std::int64_t) override {
    throw std::runtime_error("database is locked");
  }
  std::vector<store::HoldingRecord> holdingsOf(const std::string& user_id) override {
    return real_.holdingsOf(user_id);
  }
  std::optional<std::int64_t> lastImportedAt(const std::string& user_id) override {
    return real_.lastImportedAt(user_id);
  }
  std::map<std::string, std::int64_t> importedAtByAccount(const std::string& user_id) override {
    return real_.importedAtByAccount(user_id);
  }
  std::vector<std::int64_t> heldItemIds() override { return real_.heldItemIds(); }
  std::vector<std::string> usersHoldingApplied() override { return real_.usersHoldingApplied(); }
  void forgetAccount(const std::string&, const std::string&) override {
    throw std::runtime_error("database is locked");
  }
  std::vector<store::DepartureRecord> departuresOf(const std::string& user_id) override {
    return real_.departuresOf(user_id);
  }
  std::optional<store::DepartureRecord> setSalePrice(const std::string&, std::int64_t,
                                                     std::optional<std::int64_t>,
                                                     std::int64_t) override {
    throw std::runtime_error("database is locked");
  }
  bool deleteDeparture(const std::string&, std::int64_t) override {
    throw std::runtime_error("database is locked");
  }
  std::optional<store::HoldingRecord> changeCost(const std::string&, std::int64_t,
                                                 const store::CostChange&, std::int64_t) override {
    throw std::runtime_error("database is locked");
  }
  void setCosts(const std::string&, const std::vector<store::ItemCost>&, std::int64_t) override {
    throw std::runtime_error("database is locked");
  }

 private:
  store::HoldingStore& real_;
};

}  // namespace

class ImportServiceTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(ImportServiceTest);
  CPPUNIT_TEST(importsMatchedUnitsAndStartsTheCooldown);
  CPPUNIT_TEST(fillsMissingPicturesFromTheInventoryIcons);
  CPPUNIT_TEST(aSecondImportInsideTheCooldownIsRefusedWithTheTimeLeft);
  CPPUNIT_TEST(theCooldownEnds);
  CPPUNIT_TEST(deletesItemsThatLeftTheInventory);
  CPPUNIT_TEST(refusesAUserWithoutLinkBeforeAnythingElse);
  CPPUNIT_TEST(refusesAnInvalidPlatformIdBeforeTheLock);
  CPPUNIT_TEST(aStoreOutageRefusesWithoutFetching);
  CPPUNIT_TEST(anInventoryFailureWritesNothingAndReleasesTheLock);
  CPPUNIT_TEST(aFailedWriteReleasesTheLock);
  CPPUNIT_TEST(aStoreOutageAfterTheWriteStillReportsTheImport);
  CPPUNIT_TEST(concurrentImportsRunOnce);
  CPPUNIT_TEST(anAccountUnlinkedDuringItsImportGetsNothingWritten);
  CPPUNIT_TEST(aZeroCooldownFreesTheLock);
  CPPUNIT_TEST(threeFailuresInTenMinutesPauseImportsForAMinute);
  CPPUNIT_TEST(refusalsBeforeThePlatformAreNoFailures);
  CPPUNIT_TEST(aUsedUpBudgetIsAWaitNotAFailure);
  CPPUNIT_TEST(aUserWithARecentFailureLeavesTheReserve);
  CPPUNIT_TEST(twentyFailingAccountsCannotKeepTheBudgetEmpty);
  CPPUNIT_TEST(holdsTheVariantThePaintIndexTells);
  CPPUNIT_TEST_SUITE_END();

 public:
  void setUp() override {
    db_ = store::openDatabase("sqlite://:memory:", SKINPULSE_SHARE_DIR "/sql");
    db_->catalog().seed(
        {{"Recoil Case", "Container", "Recoil Case", "Base Grade", false, ""},
         {"AK-47 | Redline (Field-Tested)", "Rifle", "Redline", "Classified", false, ""},
         {"★ Karambit", "Knife", "Vanilla", "Covert", false, ""}},
        kNow);
    catalog_.reset(db_->catalog().allItems());
    user_ = db_->users().createUser("a@example.com", "A", "", kNow).id;
    CPPUNIT_ASSERT(db_->users().linkGameId({user_, kPlatformId, kNow}));
    store_ = std::make_unique<MemorySharedStore>();
    lock_ = std::make_unique<ImportLock>(*store_, [this] { return std::to_string(++tokens_); });
    // Its own store, so that the lock tests can still see "nothing left in the store".
    throttle_store_ = std::make_unique<MemorySharedStore>();
    throttle_ = std::make_unique<ImportThrottle>(*throttle_store_, ImportThrottleOptions{},
                                                 [this] { return throttle_store_->now_ms; });
    inventory_.inventory = plainInventory(
        {{"Recoil Case", 25}, {"AK-47 | Redline (Field-Tested)", 1}, {"Not In Catalogue", 2}});
    inventory_.inventory.unnamed_units = 1;
  }

  ImportService service(store::HoldingStore& holdings, std::int64_t cooldown = 600,
                        catalog::CatalogImages* images = nullptr) {
    ImportOptions options;
    options.cooldown = std::chrono::seconds(cooldown);
    options.lock_hold = std::chrono::seconds(1060);
    return ImportService(
        db_->users(), holdings, catalog_, inventory_, *lock_, *throttle_, options,
        [this] { return now_; }, images);
  }
  ImportService service() { return service(db_->holdings()); }

  std::int64_t idOf(const std::string& name) {
    return catalog_.snapshot()->findByName(name)->record.id;
  }

  ImportRefused::Reason refusal(ImportService& imports, std::int64_t* retry_after = nullptr) {
    try {
      imports.run(user_);
    } catch (const ImportRefused& e) {
      if (retry_after) *retry_after = e.retryAfter();
      return e.reason();
    }
    CPPUNIT_FAIL("the import was not refused");
    return ImportRefused::Reason::kCooldown;
  }

  void importsMatchedUnitsAndStartsTheCooldown() {
    auto imports = service();
    const auto outcome = imports.run(user_);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{26}, outcome.imported_units);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{3}, outcome.unmatched_units);  // 2 unknown + 1 unnamed
    const auto held = db_->holdings().holdingsOf(user_);
    CPPUNIT_ASSERT_EQUAL(std::size_t{2}, held.size());
    for (const auto& holding : held) {
      const std::int64_t expected = holding.item_id == idOf("Recoil Case") ? 25 : 1;
      CPPUNIT_ASSERT_EQUAL(expected, holding.quantity);
      CPPUNIT_ASSERT_EQUAL(now_, holding.imported_at);
    }
    CPPUNIT_ASSERT_EQUAL(now_, *db_->holdings().lastImportedAt(user_));
    const auto cooldown = store_->ttlLeft(ImportLock::keyOf(user_, kPlatformId));
    CPPUNIT_ASSERT(cooldown);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{600000}, *cooldown);
  }

  void fillsMissingPicturesFromTheInventoryIcons() {
    const std::string kept = "https://images.example/own-karambit.png";
    db_->catalog().fillMissingImages({{idOf("★ Karambit"), kept}});
    catalog_.reset(db_->catalog().allItems());
    inventory_.inventory.add({"★ Karambit"}, 1);
    inventory_.inventory.icon_by_name = {{"Recoil Case", "recoil_ICON-1"},
                                         {"AK-47 | Redline (Field-Tested)", "bad icon<script>"},
                                         {"★ Karambit", "karambit_icon"}};
    catalog::CatalogImages images(db_->catalog(), catalog_);
    auto imports = service(db_->holdings(), 600, &images);
    imports.run(user_);
    // Shown at once: the in-memory catalogue was republished.
    const auto snapshot = catalog_.snapshot();
    CPPUNIT_ASSERT_EQUAL(
        std::string("https://community.akamai.steamstatic.com/economy/image/recoil_ICON-1"),
        snapshot->findByName("Recoil Case")->record.image_url);
    // A token that is not an icon path gives no picture; an item's own picture stays.
    CPPUNIT_ASSERT(
        snapshot->findByName("AK-47 | Redline (Field-Tested)")->record.image_url.empty());
    CPPUNIT_ASSERT_EQUAL(kept, snapshot->findByName("★ Karambit")->record.image_url);
    CPPUNIT_ASSERT_EQUAL(kept, db_->catalog().findByName("★ Karambit")->image_url);
  }

  void aSecondImportInsideTheCooldownIsRefusedWithTheTimeLeft() {
    auto imports = service();
    imports.run(user_);
    store_->now_ms += 100'500;  // 100.5 s later: 499.5 s left, rounded up
    std::int64_t retry_after = 0;
    CPPUNIT_ASSERT(refusal(imports, &retry_after) == ImportRefused::Reason::kCooldown);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{500}, retry_after);
    CPPUNIT_ASSERT_EQUAL(1, inventory_.fetches.load());  // never reached the platform
  }

  void theCooldownEnds() {
    auto imports = service();
    imports.run(user_);
    store_->now_ms += 600'000;
    imports.run(user_);
    CPPUNIT_ASSERT_EQUAL(2, inventory_.fetches.load());
  }

  void deletesItemsThatLeftTheInventory() {
    auto imports = service(db_->holdings(), 0);
    imports.run(user_);
    inventory_.inventory = plainInventory({{"Recoil Case", 3}, {"★ Karambit", 1}});
    inventory_.inventory.unnamed_units = 0;
    now_ += 10;
    const auto outcome = imports.run(user_);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{4}, outcome.imported_units);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{0}, outcome.unmatched_units);
    const auto held = db_->holdings().holdingsOf(user_);
    CPPUNIT_ASSERT_EQUAL(std::size_t{2}, held.size());
    for (const auto& holding : held) {
      CPPUNIT_ASSERT(holding.item_id != idOf("AK-47 | Redline (Field-Tested)"));
    }
    // An empty inventory empties the portfolio.
    inventory_.inventory.units_by_lot.clear();
    imports.run(user_);
    CPPUNIT_ASSERT(db_->holdings().holdingsOf(user_).empty());
    CPPUNIT_ASSERT_EQUAL(now_, *db_->holdings().lastImportedAt(user_));
  }

  void refusesAUserWithoutLinkBeforeAnythingElse() {
    const auto other = db_->users().createUser("b@example.com", "B", "", kNow).id;
    store_->down = true;  // the link is checked before the store is touched
    auto imports = service();
    try {
      imports.run(other);
      CPPUNIT_FAIL("imported without a link");
    } catch (const ImportRefused& e) {
      CPPUNIT_ASSERT(e.reason() == ImportRefused::Reason::kNotLinked);
    }
    CPPUNIT_ASSERT_EQUAL(0, inventory_.fetches.load());
  }

  void refusesAnInvalidPlatformIdBeforeTheLock() {
    const auto other = db_->users().createUser("b@example.com", "B", "", kNow).id;
    // A group id (account type 7): numeric, 18 digits, outside the individual range.
    CPPUNIT_ASSERT(db_->users().linkGameId({other, "103582791429521408", kNow}));
    store_->down = true;
    auto imports = service();
    try {
      imports.run(other);
      CPPUNIT_FAIL("imported with an invalid platform id");
    } catch (const ImportRefused& e) {
      CPPUNIT_ASSERT(e.reason() == ImportRefused::Reason::kInvalidPlatformId);
    }
    CPPUNIT_ASSERT_EQUAL(0, inventory_.fetches.load());
  }

  void aStoreOutageRefusesWithoutFetching() {
    store_->down = true;
    auto imports = service();
    CPPUNIT_ASSERT_THROW(imports.run(user_), state::StoreUnavailable);
    CPPUNIT_ASSERT_EQUAL(0, inventory_.fetches.load());
    CPPUNIT_ASSERT(db_->holdings().holdingsOf(user_).empty());
    CPPUNIT_ASSERT(!db_->holdings().lastImportedAt(user_));
  }

  void anInventoryFailureWritesNothingAndReleasesTheLock() {
    auto imports = service(db_->holdings(), 0);
    imports.run(user_);
    const auto before = db_->holdings().holdingsOf(user_);
    auto cooled = service();
    inventory_.failure = InventoryError(InventoryError::Kind::kPrivate, "403");
    now_ += 10;
    CPPUNIT_ASSERT_THROW(cooled.run(user_), InventoryError);
    CPPUNIT_ASSERT((before == db_->holdings().holdingsOf(user_)));
    CPPUNIT_ASSERT_EQUAL(now_ - 10, *db_->holdings().lastImportedAt(user_));
    CPPUNIT_ASSERT_EQUAL(std::size_t{0}, store_->size());  // no lock, no cooldown
    inventory_.failure.reset();
    cooled.run(user_);  // the user may retry at once
    CPPUNIT_ASSERT_EQUAL(now_, *db_->holdings().lastImportedAt(user_));
  }

  void aFailedWriteReleasesTheLock() {
    FailingHoldings failing(db_->holdings());
    auto imports = service(failing);
    CPPUNIT_ASSERT_THROW(imports.run(user_), std::runtime_error);
    CPPUNIT_ASSERT_EQUAL(std::size_t{0}, store_->size());
    CPPUNIT_ASSERT(db_->holdings().holdingsOf(user_).empty());
  }

  void aStoreOutageAfterTheWriteStillReportsTheImport() {
    // The store goes down while the inventory is fetched: the write happens, the
    // cooldown cannot be set, and the running lock (held longer than a cooldown) stays.
    inventory_.hold = true;
    auto imports = service();
    std::int64_t imported = -1;
    std::thread runner([&] { imported = imports.run(user_).imported_units; });
    inventory_.waitUntilEntered();
    store_->down = true;
    inventory_.release();
    runner.join();
    CPPUNIT_ASSERT_EQUAL(std::int64_t{26}, imported);
    CPPUNIT_ASSERT_EQUAL(std::size_t{2}, db_->holdings().holdingsOf(user_).size());
    store_->down = false;
    std::int64_t retry_after = 0;
    CPPUNIT_ASSERT(refusal(imports, &retry_after) == ImportRefused::Reason::kCooldown);
    CPPUNIT_ASSERT(store_->ttlLeft(ImportLock::keyOf(user_, kPlatformId)).value() > 600000);
  }

  void concurrentImportsRunOnce() {
    inventory_.hold = true;
    auto imports = service();
    std::atomic<int> succeeded{0};
    std::thread first([&] {
      imports.run(user_);
      ++succeeded;
    });
    inventory_.waitUntilEntered();
    std::int64_t retry_after = 0;
    CPPUNIT_ASSERT(refusal(imports, &retry_after) == ImportRefused::Reason::kCooldown);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{600}, retry_after);  // the cooldown it will start
    inventory_.release();
    first.join();
    CPPUNIT_ASSERT_EQUAL(1, succeeded.load());
    CPPUNIT_ASSERT_EQUAL(1, inventory_.fetches.load());
  }

  // The user unlinks the account while its inventory is being fetched: the fetched
  // holdings are not written back after the unlink removed the account's holdings.
  void anAccountUnlinkedDuringItsImportGetsNothingWritten() {
    inventory_.hold = true;
    auto imports = service();
    std::optional<ImportRefused::Reason> refused;
    std::thread runner([&] {
      try {
        imports.run(user_);
      } catch (const ImportRefused& e) {
        refused = e.reason();
      }
    });
    inventory_.waitUntilEntered();
    CPPUNIT_ASSERT(db_->users().unlinkGameId(user_, kPlatformId));
    inventory_.release();
    runner.join();
    CPPUNIT_ASSERT(refused == ImportRefused::Reason::kNotLinked);
    CPPUNIT_ASSERT(db_->holdings().holdingsOf(user_).empty());
    CPPUNIT_ASSERT(db_->holdings().importedAtByAccount(user_).empty());
    CPPUNIT_ASSERT(db_->holdings().departuresOf(user_).empty());
    CPPUNIT_ASSERT_EQUAL(std::size_t{0}, store_->size());  // no cooldown for a refusal
  }

  void aZeroCooldownFreesTheLock() {
    auto imports = service(db_->holdings(), 0);
    imports.run(user_);
    CPPUNIT_ASSERT_EQUAL(std::size_t{0}, store_->size());
    imports.run(user_);
    CPPUNIT_ASSERT_EQUAL(2, inventory_.fetches.load());
  }

  void threeFailuresInTenMinutesPauseImportsForAMinute() {
    auto imports = service();
    inventory_.failure = InventoryError(InventoryError::Kind::kPrivate, "403");
    for (int i = 0; i < 3; ++i) {
      CPPUNIT_ASSERT_THROW(imports.run(user_), InventoryError);
      throttle_store_->now_ms += 60'000;  // one failure a minute: all within 10 minutes
    }
    std::int64_t retry_after = 0;
    throttle_store_->now_ms -= 60'000 - 15'000;  // 15 s after the third failure
    CPPUNIT_ASSERT(refusal(imports, &retry_after) == ImportRefused::Reason::kCooldown);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{45}, retry_after);
    CPPUNIT_ASSERT_EQUAL(3, inventory_.fetches.load());  // the platform was not asked again

    throttle_store_->now_ms += 45'000;  // the pause is over: the user may try again
    inventory_.failure.reset();
    CPPUNIT_ASSERT_EQUAL(std::int64_t{26}, imports.run(user_).imported_units);
  }

  void refusalsBeforeThePlatformAreNoFailures() {
    auto imports = service();
    imports.run(user_);  // a success starts the cooldown
    for (int i = 0; i < 5; ++i) {
      CPPUNIT_ASSERT(refusal(imports) == ImportRefused::Reason::kCooldown);
    }
    CPPUNIT_ASSERT(!throttle_->retryAfterSeconds(importSubject(user_, kPlatformId)));
    CPPUNIT_ASSERT_EQUAL(std::size_t{0}, throttle_store_->size());
  }

  void aUsedUpBudgetIsAWaitNotAFailure() {
    auto imports = service();
    inventory_.budget_used_up = true;
    for (int i = 0; i < 4; ++i) {
      std::int64_t retry_after = 0;
      CPPUNIT_ASSERT(refusal(imports, &retry_after) == ImportRefused::Reason::kCooldown);
      CPPUNIT_ASSERT_EQUAL(std::int64_t{7}, retry_after);
    }
    CPPUNIT_ASSERT_EQUAL(std::size_t{0}, store_->size());           // the lock was released
    CPPUNIT_ASSERT_EQUAL(std::size_t{0}, throttle_store_->size());  // and nobody is paused
    inventory_.budget_used_up = false;
    CPPUNIT_ASSERT_EQUAL(std::int64_t{26}, imports.run(user_).imported_units);
  }

  void aUserWithARecentFailureLeavesTheReserve() {
    auto imports = service();
    imports.run(user_);
    CPPUNIT_ASSERT(inventory_.last_priority == net::RequestBudget::Priority::kUser);
    store_->now_ms += 600'000;  // past the cooldown
    inventory_.failure = InventoryError(InventoryError::Kind::kPrivate, "403");
    CPPUNIT_ASSERT_THROW(imports.run(user_), InventoryError);
    CPPUNIT_ASSERT(inventory_.last_priority == net::RequestBudget::Priority::kUser);
    // The next one, within the throttle's window, is charged as a failing user's.
    CPPUNIT_ASSERT_THROW(imports.run(user_), InventoryError);
    CPPUNIT_ASSERT(inventory_.last_priority == net::RequestBudget::Priority::kUserAfterFailure);
    throttle_store_->now_ms += 600'000;  // the window has passed: a user like any other
    inventory_.failure.reset();
    imports.run(user_);
    CPPUNIT_ASSERT(inventory_.last_priority == net::RequestBudget::Priority::kUser);
  }

  // issue 31: ~20 accounts whose imports keep failing, each retrying as fast as its
  // throttle lets it and spread over the minute, kept the game platform's budget (20 a
  // minute) empty, and a healthy user's import was refused for want of a token. Their
  // imports now leave the budget's reserve (a quarter) to users without failures.
  void twentyFailingAccountsCannotKeepTheBudgetEmpty() {
    const auto millis = [this] { return throttle_store_->now_ms; };
    net::RequestBudget budget(20, [millis] {
      return std::chrono::steady_clock::time_point(std::chrono::milliseconds(millis()));
    });
    inventory_.budget = &budget;
    std::vector<std::string> failing_users;
    for (int i = 1; i <= 20; ++i) {
      const std::string platform_id = std::to_string(76561197960287930LL + i);
      const auto id =
          db_->users().createUser("f" + std::to_string(i) + "@example.com", "F", "", kNow).id;
      CPPUNIT_ASSERT(db_->users().linkGameId({id, platform_id, kNow}));
      inventory_.failing_ids.insert(platform_id);
      failing_users.push_back(id);
    }
    auto imports = service(db_->holdings(), 120);
    int healthy_attempts = 0;
    int healthy_refused = 0;
    int failing_fetches = 0;
    std::int64_t next_healthy = 90;  // seconds: after the first minute's burst
    // 12 minutes, one-second steps; failing account i starts 3 i seconds in.
    for (std::int64_t second = 0; second < 720; ++second) {
      for (std::size_t i = 0; i < failing_users.size(); ++i) {
        if (second < static_cast<std::int64_t>(3 * i)) continue;
        try {
          imports.run(failing_users[i]);
        } catch (const InventoryError&) {
          ++failing_fetches;
        } catch (const ImportRefused&) {
        }
      }
      if (second == next_healthy) {
        ++healthy_attempts;
        try {
          imports.run(user_);
          next_healthy += 150;  // past the 120 s cooldown
        } catch (const ImportRefused&) {
          ++healthy_refused;
          next_healthy += 1;
        }
      }
      store_->now_ms += 1000;
      throttle_store_->now_ms += 1000;
    }
    std::printf(
        "\n  20 failing accounts, 12 min: %d failed fetches; healthy user: %d of %d "
        "imports refused\n",
        failing_fetches, healthy_refused, healthy_attempts);
    CPPUNIT_ASSERT(healthy_attempts >= 4);
    CPPUNIT_ASSERT_EQUAL(0, healthy_refused);
  }

 private:
  std::unique_ptr<store::Database> db_;
  catalog::Catalog catalog_;
  std::string user_;
  std::unique_ptr<MemorySharedStore> store_;
  std::unique_ptr<ImportLock> lock_;
  std::unique_ptr<MemorySharedStore> throttle_store_;
  std::unique_ptr<ImportThrottle> throttle_;
  ScriptedInventory inventory_;
  int tokens_ = 0;
  std::int64_t now_ = kNow + 100;

  // docs/api.md §18: the paint index tells a Doppler's phase; units it does not tell (no
  // paint index, one of another finish, a variant the catalogue lacks) are the base item.
  void holdsTheVariantThePaintIndexTells() {
    const std::string name = "★ Karambit | Doppler (Factory New)";
    std::vector<store::CatalogEntry> entries{{name, "Karambit", "Doppler", "Covert", false, ""}};
    for (const char* phase : {"Phase 2", "Ruby"}) {
      entries.push_back(entries.front());
      entries.back().variant = phase;
    }
    db_->catalog().seed(entries, kNow);
    catalog_.reset(db_->catalog().allItems());
    const auto snapshot = catalog_.snapshot();
    const std::int64_t base = snapshot->findByName(name)->record.id;
    const std::int64_t ruby = snapshot->findVariant(name, "Ruby")->record.id;
    const std::int64_t phase2 = snapshot->findVariant(name, "Phase 2")->record.id;
    // 415 Ruby ×2; 618 and 419 both Phase 2 (two kits); 569 a Gamma Doppler kit; 421
    // Phase 4, which this catalogue lacks; one unit without a paint index.
    inventory_.inventory = Inventory{};
    for (const auto& [paint, units] :
         std::map<std::int64_t, std::int64_t>{{415, 2}, {618, 1}, {419, 1}, {569, 1}, {421, 1}}) {
      inventory_.inventory.add({name, paint}, units);
    }
    inventory_.inventory.add({name}, 1);
    auto imports = service();
    const auto outcome = imports.run(user_);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{7}, outcome.imported_units);
    std::map<std::int64_t, std::int64_t> held;
    for (const auto& holding : db_->holdings().holdingsOf(user_)) {
      held[holding.item_id] = holding.quantity;
    }
    CPPUNIT_ASSERT_EQUAL(std::size_t{3}, held.size());
    CPPUNIT_ASSERT_EQUAL(std::int64_t{2}, held.at(ruby));
    CPPUNIT_ASSERT_EQUAL(std::int64_t{2}, held.at(phase2));
    CPPUNIT_ASSERT_EQUAL(std::int64_t{3}, held.at(base));
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(ImportServiceTest);
