// ImportService::run over several linked accounts (docs/api.md §23.2): one or all, each
// with its own cooldown lock and failure throttle, the others going on when one fails,
// the first account's error when every one fails.

#include "MemorySharedStore.hpp"
#include "portfolio/ImportService.hpp"
#include "portfolio/InventoryError.hpp"
#include "store/Database.hpp"

#include <cppunit/extensions/HelperMacros.h>

#include <map>
#include <vector>

using namespace skinpulse;
using namespace skinpulse::portfolio;
using skinpulse::test::MemorySharedStore;

namespace {

constexpr const char* kAccountsMain = "76561197960287930";
constexpr const char* kAccountsStorage = "76561197960287931";
constexpr std::int64_t kAccountsNow = 1'800'000'000;

/// Each platform id's inventory, or the failure its fetch throws; records the fetches.
class InventoryPerAccount final : public InventorySource {
 public:
  std::map<std::string, Inventory> inventories;
  std::map<std::string, InventoryError::Kind> failures;
  std::vector<std::string> fetched;

  Inventory fetch(const std::string& platform_id, net::RequestBudget::Priority) override {
    fetched.push_back(platform_id);
    if (const auto failure = failures.find(platform_id); failure != failures.end()) {
      throw InventoryError(failure->second, "inventory: scripted failure");
    }
    return inventories.at(platform_id);
  }
};

Inventory inventoryOf(std::map<std::string, std::int64_t> units_by_name) {
  Inventory inventory;
  for (auto& [name, units] : units_by_name) inventory.add(InventoryLot{name}, units);
  return inventory;
}

}  // namespace

class ImportServiceAccountsTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(ImportServiceAccountsTest);
  CPPUNIT_TEST(importsEveryAccountOldestLinkFirst);
  CPPUNIT_TEST(importsOneAccountWithItsOwnCooldown);
  CPPUNIT_TEST(anAccountThatIsNotTheUsersIsRefusedBeforeAnyFetch);
  CPPUNIT_TEST(oneFailingAccountDoesNotStopTheOther);
  CPPUNIT_TEST(everyAccountFailingThrowsTheFirstOnesError);
  CPPUNIT_TEST(failuresPauseOnlyTheirAccount);
  CPPUNIT_TEST(withoutALinkNothingRuns);
  CPPUNIT_TEST_SUITE_END();

 public:
  void setUp() override {
    db_ = store::openDatabase("sqlite://:memory:", SKINPULSE_SHARE_DIR "/sql");
    db_->catalog().seed(
        {{"Recoil Case", "Container", "Recoil Case", "Base Grade", false, ""},
         {"AK-47 | Redline (Field-Tested)", "Rifle", "Redline", "Classified", false, ""}},
        kAccountsNow);
    catalog_.reset(db_->catalog().allItems());
    user_ = db_->users().createUser("a@example.com", "A", "", kAccountsNow).id;
    // Linked newest first by platform id: the order is the links' age, not the id.
    CPPUNIT_ASSERT(db_->users().linkGameId({user_, kAccountsStorage, kAccountsNow - 100}));
    CPPUNIT_ASSERT(db_->users().linkGameId({user_, kAccountsMain, kAccountsNow}));
    store_ = std::make_unique<MemorySharedStore>();
    lock_ = std::make_unique<ImportLock>(*store_, [this] { return std::to_string(++tokens_); });
    throttle_ = std::make_unique<ImportThrottle>(*store_, ImportThrottleOptions{},
                                                 [this] { return store_->now_ms; });
    inventory_.inventories[kAccountsMain] =
        inventoryOf({{"Recoil Case", 25}, {"Not In Catalogue", 2}});
    inventory_.inventories[kAccountsStorage] = inventoryOf({{"AK-47 | Redline (Field-Tested)", 3}});
  }

  ImportService service() {
    ImportOptions options;
    options.cooldown = std::chrono::seconds(600);
    return ImportService(db_->users(), db_->holdings(), catalog_, inventory_, *lock_, *throttle_,
                         options, [] { return kAccountsNow; });
  }

  void importsEveryAccountOldestLinkFirst() {
    auto imports = service();
    const auto report = imports.run(user_);
    CPPUNIT_ASSERT(
        (inventory_.fetched == std::vector<std::string>{kAccountsStorage, kAccountsMain}));
    CPPUNIT_ASSERT_EQUAL(std::size_t{2}, report.accounts.size());
    CPPUNIT_ASSERT_EQUAL(std::string(kAccountsStorage), report.accounts[0].account);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{3}, report.accounts[0].outcome->imported_units);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{25}, report.accounts[1].outcome->imported_units);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{2}, report.accounts[1].outcome->unmatched_units);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{28}, report.imported_units);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{2}, report.unmatched_units);
    // Each account's own cooldown started.
    for (const char* account : {kAccountsMain, kAccountsStorage}) {
      CPPUNIT_ASSERT_EQUAL(std::int64_t{600000},
                           store_->ttlLeft(ImportLock::keyOf(user_, account)).value_or(0));
    }
    // Again at once: both in their cooldown, so the first one's refusal is thrown.
    try {
      imports.run(user_);
      CPPUNIT_FAIL("imported inside the cooldown");
    } catch (const ImportRefused& refusal) {
      CPPUNIT_ASSERT(refusal.reason() == ImportRefused::Reason::kCooldown);
      CPPUNIT_ASSERT_EQUAL(std::int64_t{600}, refusal.retryAfter());
    }
    CPPUNIT_ASSERT_EQUAL(std::size_t{2}, inventory_.fetched.size());
  }

  void importsOneAccountWithItsOwnCooldown() {
    auto imports = service();
    const auto one = imports.run(user_, std::string(kAccountsMain));
    CPPUNIT_ASSERT_EQUAL(std::size_t{1}, one.accounts.size());
    CPPUNIT_ASSERT_EQUAL(std::int64_t{25}, one.imported_units);
    CPPUNIT_ASSERT((inventory_.fetched == std::vector<std::string>{kAccountsMain}));
    CPPUNIT_ASSERT(!store_->ttlLeft(ImportLock::keyOf(user_, kAccountsStorage)));
    // The other account is not in the first one's cooldown.
    const auto other = imports.run(user_, std::string(kAccountsStorage));
    CPPUNIT_ASSERT_EQUAL(std::int64_t{3}, other.imported_units);
    // All: both cool down now, so the answer is the first account's refusal.
    CPPUNIT_ASSERT_THROW(imports.run(user_), ImportRefused);
    CPPUNIT_ASSERT_EQUAL(std::size_t{2}, inventory_.fetched.size());
  }

  void anAccountThatIsNotTheUsersIsRefusedBeforeAnyFetch() {
    const auto other = db_->users().createUser("b@example.com", "B", "", kAccountsNow).id;
    CPPUNIT_ASSERT(db_->users().linkGameId({other, "76561197960287939", kAccountsNow}));
    auto imports = service();
    for (const std::string account : {"76561197960287939", "76561197960287938", ""}) {
      try {
        imports.run(user_, account);
        CPPUNIT_FAIL("imported an account that is not the user's: " + account);
      } catch (const ImportRefused& refusal) {
        CPPUNIT_ASSERT(refusal.reason() == ImportRefused::Reason::kUnknownAccount);
      }
    }
    CPPUNIT_ASSERT(inventory_.fetched.empty());
  }

  void oneFailingAccountDoesNotStopTheOther() {
    inventory_.failures[kAccountsStorage] = InventoryError::Kind::kPrivate;
    auto imports = service();
    const auto report = imports.run(user_);
    CPPUNIT_ASSERT_EQUAL(std::size_t{2}, report.accounts.size());
    CPPUNIT_ASSERT(!report.accounts[0].outcome);
    try {
      std::rethrow_exception(report.accounts[0].error);
    } catch (const InventoryError& error) {
      CPPUNIT_ASSERT(error.kind() == InventoryError::Kind::kPrivate);
    }
    CPPUNIT_ASSERT(report.accounts[1].outcome);
    CPPUNIT_ASSERT(!report.accounts[1].error);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{25}, report.imported_units);
    // The failed account has no cooldown: it may be retried at once, alone.
    CPPUNIT_ASSERT(!store_->ttlLeft(ImportLock::keyOf(user_, kAccountsStorage)));
    inventory_.failures.clear();
    CPPUNIT_ASSERT_EQUAL(std::int64_t{3},
                         imports.run(user_, std::string(kAccountsStorage)).imported_units);
  }

  void everyAccountFailingThrowsTheFirstOnesError() {
    inventory_.failures[kAccountsStorage] = InventoryError::Kind::kUnavailable;
    inventory_.failures[kAccountsMain] = InventoryError::Kind::kPrivate;
    auto imports = service();
    try {
      imports.run(user_);
      CPPUNIT_FAIL("no account imported, yet no error");
    } catch (const InventoryError& error) {
      CPPUNIT_ASSERT(error.kind() == InventoryError::Kind::kUnavailable);  // the oldest link's
    }
    CPPUNIT_ASSERT_EQUAL(std::size_t{2}, inventory_.fetched.size());  // both were tried
    CPPUNIT_ASSERT(!db_->holdings().lastImportedAt(user_));
  }

  void failuresPauseOnlyTheirAccount() {
    inventory_.failures[kAccountsMain] = InventoryError::Kind::kUpstream;
    auto imports = service();
    for (int i = 0; i < 3; ++i) {
      CPPUNIT_ASSERT_THROW(imports.run(user_, std::string(kAccountsMain)), InventoryError);
    }
    try {
      imports.run(user_, std::string(kAccountsMain));
      CPPUNIT_FAIL("a paused account imported");
    } catch (const ImportRefused& refusal) {
      CPPUNIT_ASSERT(refusal.reason() == ImportRefused::Reason::kCooldown);
      CPPUNIT_ASSERT_EQUAL(std::int64_t{60}, refusal.retryAfter());
    }
    CPPUNIT_ASSERT(throttle_->retryAfterSeconds(importSubject(user_, kAccountsMain)));
    CPPUNIT_ASSERT(!throttle_->retryAfterSeconds(importSubject(user_, kAccountsStorage)));
    CPPUNIT_ASSERT_EQUAL(std::int64_t{3},
                         imports.run(user_, std::string(kAccountsStorage)).imported_units);
  }

  void withoutALinkNothingRuns() {
    const auto other = db_->users().createUser("c@example.com", "C", "", kAccountsNow).id;
    auto imports = service();
    for (const auto& account : {std::optional<std::string>{}, std::optional<std::string>{"x"}}) {
      try {
        imports.run(other, account);
        CPPUNIT_FAIL("imported without a link");
      } catch (const ImportRefused& refusal) {
        CPPUNIT_ASSERT(refusal.reason() == ImportRefused::Reason::kNotLinked);
      }
    }
    CPPUNIT_ASSERT(inventory_.fetched.empty());
  }

 private:
  std::unique_ptr<store::Database> db_;
  catalog::Catalog catalog_;
  std::string user_;
  std::unique_ptr<MemorySharedStore> store_;
  std::unique_ptr<ImportLock> lock_;
  std::unique_ptr<ImportThrottle> throttle_;
  InventoryPerAccount inventory_;
  int tokens_ = 0;
};

CPPUNIT_TEST_SUITE_REGISTRATION(ImportServiceAccountsTest);
