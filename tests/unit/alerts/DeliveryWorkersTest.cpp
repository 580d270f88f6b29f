// DeliveryWorkers (issue 31): the lease outlives the sender's deadline, one user's slow
// targets hold at most their share of the workers while another user's delivery goes
// out, and finished deliveries are pruned after the retention (pending ones never).

#include "alerts/DeliveryWorkers.hpp"
#include "store/Database.hpp"

#include <cppunit/extensions/HelperMacros.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

using namespace skinpulse;
using namespace skinpulse::alerts;
using namespace std::chrono_literals;

namespace {

constexpr std::int64_t kNow = 1795342500;

// A sender whose "/slow/" targets hang until released (a dripping target), the others
// answer 204 at once. Counts the slow attempts in flight.
class HangingSender final : public Sender {
 public:
  HangingSender() : Sender(SenderOptions{}) {}

  SendOutcome post(const std::string& url, const std::string&,
                   const std::vector<std::pair<std::string, std::string>>&) const override {
    if (url.find("/slow/") == std::string::npos) {
      return SendOutcome{SendOutcome::Kind::kDelivered, 204, "", ""};
    }
    std::unique_lock lock(mutex_);
    ++hanging_;
    changed_.notify_all();
    changed_.wait(lock, [&] { return released_; });
    --hanging_;
    return SendOutcome{SendOutcome::Kind::kRetry, std::nullopt, "timeout", ""};
  }

  int hanging() const {
    std::lock_guard lock(mutex_);
    return hanging_;
  }
  void release() {
    std::lock_guard lock(mutex_);
    released_ = true;
    changed_.notify_all();
  }

 private:
  mutable std::mutex mutex_;
  mutable std::condition_variable changed_;
  mutable int hanging_ = 0;
  bool released_ = false;
};

store::AlertDeliveryRecord deliveryOf(const std::string& id, std::int64_t rule,
                                      const std::string& user, const std::string& url,
                                      std::int64_t at) {
  store::AlertDeliveryRecord d;
  d.id = id;
  d.rule_id = rule;
  d.user_id = user;
  d.channel_type = "webhook";
  d.channel = R"({"type":"webhook","url":")" + url + R"(","secret":"whsec_test"})";
  d.body = "{}";
  d.next_attempt_at = at;
  d.created_at = at;
  return d;
}

template <typename Predicate>
bool waitFor(Predicate predicate, std::chrono::milliseconds timeout = 5000ms) {
  const auto until = std::chrono::steady_clock::now() + timeout;
  while (std::chrono::steady_clock::now() < until) {
    if (predicate()) return true;
    std::this_thread::sleep_for(10ms);
  }
  return predicate();
}

}  // namespace

class DeliveryWorkersTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(DeliveryWorkersTest);
  CPPUNIT_TEST(theLeaseOutlivesTheDeadline);
  CPPUNIT_TEST(aUsersShareIsHalfTheWorkersByDefault);
  CPPUNIT_TEST(aSlowUserCannotHoldEveryWorker);
  CPPUNIT_TEST(finishedDeliveriesArePrunedAfterTheRetention);
  CPPUNIT_TEST_SUITE_END();

 public:
  void setUp() override {
    db_ = store::openDatabase("sqlite://:memory:", SKINPULSE_SHARE_DIR "/sql");
    db_->catalog().seed({{"Recoil Case", "Container", "Recoil Case", "Base Grade", false, ""}},
                        kNow);
    alice_ = db_->users().createUser("a@example.com", "A", "", kNow).id;
    bob_ = db_->users().createUser("b@example.com", "B", "", kNow).id;
    alices_rule_ = ruleOf(alice_);
    bobs_rule_ = ruleOf(bob_);
  }

  void theLeaseOutlivesTheDeadline() {
    CPPUNIT_ASSERT_EQUAL(std::int64_t{10 + kLeaseMarginSeconds}, leaseSeconds(10000ms));
    CPPUNIT_ASSERT_EQUAL(std::int64_t{2 + kLeaseMarginSeconds}, leaseSeconds(1500ms));
    CPPUNIT_ASSERT(leaseSeconds(Sender(SenderOptions{}).timeout()) > 10);
  }

  void aUsersShareIsHalfTheWorkersByDefault() {
    CPPUNIT_ASSERT_EQUAL(1, workersPerUser(1, 0));
    CPPUNIT_ASSERT_EQUAL(1, workersPerUser(2, 0));
    CPPUNIT_ASSERT_EQUAL(2, workersPerUser(3, 0));
    CPPUNIT_ASSERT_EQUAL(2, workersPerUser(4, 0));
    CPPUNIT_ASSERT_EQUAL(3, workersPerUser(4, 3));
    CPPUNIT_ASSERT_EQUAL(2, workersPerUser(2, 9));  // never more than there are
  }

  // The issue's probe: two workers, A's two deliveries to a target that never answers,
  // queued before B's. B's goes out while A's first attempt still hangs.
  void aSlowUserCannotHoldEveryWorker() {
    db_->alerts().recordEvaluation(
        {}, {deliveryOf("a-1", alices_rule_, alice_, "https://a.example/slow/1", kNow - 2),
             deliveryOf("a-2", alices_rule_, alice_, "https://a.example/slow/2", kNow - 1),
             deliveryOf("b-1", bobs_rule_, bob_, "https://b.example/hook", kNow)});
    HangingSender sender;
    DeliveryOptions options;
    options.workers = 2;
    DeliveryWorkers workers(db_->alerts(), sender, options, nullptr, [] { return kNow; });
    workers.start();
    const bool delivered = waitFor([&] {
      const auto listed = db_->alerts().deliveriesOf(bobs_rule_, 1);
      return !listed.empty() && listed[0].status == "delivered";
    });
    // B may be delivered before A's worker has reached its target (a slow sanitizer
    // build once was): wait for A's one hanging send too.
    waitFor([&] { return sender.hanging() >= 1; });
    const int hanging = sender.hanging();
    sender.release();
    workers.stop();
    CPPUNIT_ASSERT_MESSAGE("B's delivery waited for A's hanging targets", delivered);
    CPPUNIT_ASSERT_EQUAL(1, hanging);  // A's share of two workers
  }

  void finishedDeliveriesArePrunedAfterTheRetention() {
    db_->alerts().recordEvaluation(
        {}, {deliveryOf("b-1", bobs_rule_, bob_, "https://b.example/hook", kNow),
             deliveryOf("a-1", alices_rule_, alice_, "https://a.example/slow/1", kNow)});
    HangingSender sender;
    sender.release();  // the slow one fails at once (retried: stays pending)
    std::int64_t now = kNow;
    DeliveryOptions options;
    options.retention_days = 30;
    DeliveryWorkers workers(db_->alerts(), sender, options, nullptr, [&] { return now; });
    CPPUNIT_ASSERT(workers.deliverOne());
    CPPUNIT_ASSERT(workers.deliverOne());
    now += 30 * 86400;
    CPPUNIT_ASSERT_EQUAL(std::size_t{0}, workers.pruneFinished());  // not older yet
    now += 1;
    CPPUNIT_ASSERT_EQUAL(std::size_t{1}, workers.pruneFinished());
    CPPUNIT_ASSERT(db_->alerts().deliveriesOf(bobs_rule_, 10).empty());
    CPPUNIT_ASSERT_EQUAL(std::size_t{1}, db_->alerts().deliveriesOf(alices_rule_, 10).size());

    DeliveryOptions forever;
    forever.retention_days = 0;
    db_->alerts().recordEvaluation(
        {}, {deliveryOf("b-2", bobs_rule_, bob_, "https://b.example/hook", now)});
    DeliveryWorkers keeping(db_->alerts(), sender, forever, nullptr, [&] { return now; });
    CPPUNIT_ASSERT(keeping.deliverOne());  // a-1's retry, due first
    CPPUNIT_ASSERT(keeping.deliverOne());  // b-2
    CPPUNIT_ASSERT_EQUAL(std::string("delivered"),
                         db_->alerts().deliveriesOf(bobs_rule_, 1)[0].status);
    now += 3650 * 86400;
    CPPUNIT_ASSERT_EQUAL(std::size_t{0}, keeping.pruneFinished());
    CPPUNIT_ASSERT_EQUAL(std::size_t{1}, db_->alerts().deliveriesOf(bobs_rule_, 10).size());
  }

 private:
  std::int64_t ruleOf(const std::string& user) {
    store::AlertRuleRecord rule;
    rule.user_id = user;
    rule.item_id = 1;
    rule.condition = R"({"type":"price_below","value":100,"source":null})";
    rule.channels = R"([{"type":"ws"}])";
    rule.created_at = kNow;
    return *db_->alerts().insertRule(rule, 100);
  }

  std::unique_ptr<store::Database> db_;
  std::string alice_;
  std::string bob_;
  std::int64_t alices_rule_ = 0;
  std::int64_t bobs_rule_ = 0;
};

CPPUNIT_TEST_SUITE_REGISTRATION(DeliveryWorkersTest);
