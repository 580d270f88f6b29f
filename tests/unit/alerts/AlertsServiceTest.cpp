// AlertsService against a real (in-memory SQLite) store: a firing is recorded with its
// delivery, and a firing whose outbox write fails is not lost — the next evaluation sees
// the same edge again and queues it (at least once, docs/api.md §13).

#include "alerts/AlertsService.hpp"
#include "catalog/Catalog.hpp"
#include "prices/LatestPrices.hpp"
#include "store/Database.hpp"

#include <cppunit/extensions/HelperMacros.h>

#include <memory>
#include <stdexcept>

using namespace skinpulse;
using namespace skinpulse::alerts;

namespace {

constexpr std::int64_t kNow = 1795342500;

// The store, with a recordEvaluation that fails when told to (a lost connection, a full
// disk): every other call goes through.
class FlakyAlerts final : public store::AlertStore {
 public:
  explicit FlakyAlerts(store::AlertStore& inner) : inner_(inner) {}
  bool fail_next_record = false;

  std::optional<std::int64_t> insertRule(const store::AlertRuleRecord& rule, std::int64_t max,
                                         std::int64_t* revision) override {
    return inner_.insertRule(rule, max, revision);
  }
  std::vector<store::AlertRuleRecord> rulesOf(const std::string& user) override {
    return inner_.rulesOf(user);
  }
  std::optional<store::AlertRuleRecord> rule(std::int64_t id) override { return inner_.rule(id); }
  std::vector<store::AlertRuleRecord> allRules() override { return inner_.allRules(); }
  void updateRule(const store::AlertRuleRecord& rule, std::int64_t* revision) override {
    inner_.updateRule(rule, revision);
  }
  bool deleteRule(std::int64_t id, std::int64_t* revision) override {
    return inner_.deleteRule(id, revision);
  }
  std::int64_t rulesRevision() override { return inner_.rulesRevision(); }
  void recordEvaluation(const std::vector<store::AlertStateChange>& changes,
                        const std::vector<store::AlertDeliveryRecord>& deliveries) override {
    if (fail_next_record) {
      fail_next_record = false;
      throw std::runtime_error("disk I/O error");
    }
    inner_.recordEvaluation(changes, deliveries);
  }
  std::optional<store::AlertDeliveryRecord> claimDue(const store::DeliveryClaim& claim) override {
    return inner_.claimDue(claim);
  }
  bool finishAttempt(const std::string& id, const std::string& token, const std::string& status,
                     std::int64_t next, std::optional<std::int64_t> response,
                     const std::string& error) override {
    return inner_.finishAttempt(id, token, status, next, response, error);
  }
  std::vector<store::AlertDeliveryRecord> deliveriesOf(std::int64_t rule_id,
                                                       std::size_t limit) override {
    return inner_.deliveriesOf(rule_id, limit);
  }
  std::optional<std::int64_t> nextDueAt() override { return inner_.nextDueAt(); }
  std::size_t pruneDeliveries(std::int64_t before) override {
    return inner_.pruneDeliveries(before);
  }

 private:
  store::AlertStore& inner_;
};

}  // namespace

class AlertsServiceTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(AlertsServiceTest);
  CPPUNIT_TEST(aFiringIsQueuedWithItsDelivery);
  CPPUNIT_TEST(aFiringWhoseWriteFailedIsQueuedAtTheNextEvaluation);
  CPPUNIT_TEST_SUITE_END();

 public:
  void setUp() override {
    db_ = store::openDatabase("sqlite://:memory:", SKINPULSE_SHARE_DIR "/sql");
    db_->catalog().seed({{"Recoil Case", "Container", "Recoil Case", "Base Grade", false, ""}},
                        kNow);
    catalog_.reset(db_->catalog().allItems());
    item_ = catalog_.snapshot()->findByName("Recoil Case")->record.id;
    const auto user = db_->users().createUser("a@example.com", "A", "", kNow).id;
    store::AlertRuleRecord rule;
    rule.user_id = user;
    rule.item_id = item_;
    rule.condition = R"({"type":"price_below","value":100,"source":null})";
    rule.channels = R"([{"type":"ws"}])";
    rule.cooldown_seconds = 3600;
    rule.created_at = kNow;
    rule_ = *db_->alerts().insertRule(rule, 100);
    store_ = std::make_unique<FlakyAlerts>(db_->alerts());
    service_ = std::make_unique<AlertsService>(
        *store_, catalog_, latest_, [] { return nullptr; }, policy_, AlertsOptions{},
        [] { return kNow; }, [] {});
    service_->load();
    latest_.apply({{item_, "market", kNow - 10, 90, 1}});  // below 100 cents: holds
  }

  void aFiringIsQueuedWithItsDelivery() {
    CPPUNIT_ASSERT_EQUAL(std::size_t{1}, service_->evaluate({item_}, kNow));
    CPPUNIT_ASSERT_EQUAL(std::size_t{1}, db_->alerts().deliveriesOf(rule_, 10).size());
    CPPUNIT_ASSERT_EQUAL(std::size_t{0}, service_->evaluate({item_}, kNow));  // no new edge
  }

  void aFiringWhoseWriteFailedIsQueuedAtTheNextEvaluation() {
    store_->fail_next_record = true;
    CPPUNIT_ASSERT_EQUAL(std::size_t{0}, service_->evaluate({item_}, kNow));
    CPPUNIT_ASSERT(db_->alerts().deliveriesOf(rule_, 10).empty());
    CPPUNIT_ASSERT(!db_->alerts().rule(rule_)->last_state);
    // The rules come back with their stored (false) state: the same edge fires again.
    CPPUNIT_ASSERT_EQUAL(std::size_t{1}, service_->evaluate({item_}, kNow));
    CPPUNIT_ASSERT_EQUAL(std::size_t{1}, db_->alerts().deliveriesOf(rule_, 10).size());
    CPPUNIT_ASSERT(db_->alerts().rule(rule_)->last_state);
  }

 private:
  std::unique_ptr<store::Database> db_;
  catalog::Catalog catalog_;
  prices::LatestPrices latest_;
  prices::PricePolicy policy_;  ///< no sources configured, outliers excluded
  std::int64_t item_ = 0;
  std::int64_t rule_ = 0;
  std::unique_ptr<FlakyAlerts> store_;
  std::unique_ptr<AlertsService> service_;
};

CPPUNIT_TEST_SUITE_REGISTRATION(AlertsServiceTest);
