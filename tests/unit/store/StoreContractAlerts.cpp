// Contract: alert rules, their edge state and the delivery outbox (store/AlertStore.hpp).

#include "StoreContract.hpp"

namespace skinpulse::test {
namespace {

store::AlertRuleRecord ruleOf(const std::string& user, std::int64_t item) {
  store::AlertRuleRecord r;
  r.user_id = user;
  r.item_id = item;
  r.condition = R"({"type":"bollinger_break","window":"24h"})";
  r.channels = R"([{"type":"ws"}])";
  r.cooldown_seconds = 60;
  r.created_at = 1000;
  return r;
}

store::AlertDeliveryRecord deliveryOf(const std::string& id, std::int64_t rule,
                                      const std::string& user, std::int64_t at) {
  store::AlertDeliveryRecord d;
  d.id = id;
  d.rule_id = rule;
  d.user_id = user;
  d.channel_type = "webhook";
  d.channel = R"({"type":"webhook","url":"https://a/","secret":"s"})";
  d.body = "{}";
  d.next_attempt_at = at;
  d.created_at = at;
  return d;
}

store::DeliveryClaim claimAt(std::int64_t now, std::int64_t lease_until,
                             const std::string& token = "t", std::int64_t max_per_user = 0) {
  store::DeliveryClaim claim;
  claim.now = now;
  claim.lease_until = lease_until;
  claim.token = token;
  claim.max_per_user = max_per_user;
  return claim;
}

}  // namespace

void StoreContract::testAlertRulesAndOutbox() {
  if (skipped()) return;
  auto& users = db_->users();
  auto& alerts = db_->alerts();
  const auto alice = users.createUser("alice@example.com", "A", "", 1000).id;
  const auto bob = users.createUser("bob@example.com", "B", "", 1000).id;

  CPPUNIT_ASSERT_EQUAL(std::int64_t{0}, alerts.rulesRevision());
  std::int64_t revision = 0;
  const auto first = alerts.insertRule(ruleOf(alice, 7), 2, &revision);
  CPPUNIT_ASSERT_EQUAL(std::int64_t{1}, revision);
  const auto second = alerts.insertRule(ruleOf(alice, 8), 2);
  CPPUNIT_ASSERT(first && second && *second > *first);
  CPPUNIT_ASSERT(!alerts.insertRule(ruleOf(alice, 9), 2));        // the per-user limit
  CPPUNIT_ASSERT_EQUAL(std::int64_t{2}, alerts.rulesRevision());  // a refusal writes nothing
  const auto bobs = alerts.insertRule(ruleOf(bob, 7), 2);
  CPPUNIT_ASSERT(bobs);
  CPPUNIT_ASSERT_EQUAL(std::size_t{2}, alerts.rulesOf(alice).size());
  CPPUNIT_ASSERT_EQUAL(std::size_t{3}, alerts.allRules().size());

  auto rule = *alerts.rule(*first);
  CPPUNIT_ASSERT_EQUAL(alice, rule.user_id);
  CPPUNIT_ASSERT(rule.enabled && !rule.last_state && !rule.last_fired_at);
  rule.enabled = false;
  rule.cooldown_seconds = 5;
  rule.channels = R"([{"type":"ws"},{"type":"ws"}])";
  alerts.updateRule(rule, &revision);
  CPPUNIT_ASSERT_EQUAL(std::int64_t{4}, revision);
  rule = *alerts.rule(*first);
  CPPUNIT_ASSERT(!rule.enabled);
  CPPUNIT_ASSERT_EQUAL(std::int64_t{5}, rule.cooldown_seconds);
  CPPUNIT_ASSERT_EQUAL(std::string(R"([{"type":"ws"},{"type":"ws"}])"), rule.channels);

  // A firing: state, last_fired_at and two deliveries in one write.
  alerts.recordEvaluation(
      {{*first, true, 2000}, {*second, true, std::nullopt}},
      {deliveryOf("d-1", *first, alice, 2000), deliveryOf("d-2", *first, alice, 2001)});
  rule = *alerts.rule(*first);
  CPPUNIT_ASSERT(rule.last_state);
  CPPUNIT_ASSERT_EQUAL(std::int64_t{2000}, *rule.last_fired_at);
  CPPUNIT_ASSERT(alerts.rule(*second)->last_state);
  CPPUNIT_ASSERT_EQUAL(std::int64_t{4}, alerts.rulesRevision());  // states are not rule writes
  CPPUNIT_ASSERT(!alerts.rule(*second)->last_fired_at);
  CPPUNIT_ASSERT_EQUAL(std::int64_t{2000}, *alerts.nextDueAt());

  // Claimed in due order, leased, attempts counted; nothing else due meanwhile.
  CPPUNIT_ASSERT(!alerts.claimDue(claimAt(1999, 2059)));
  const auto claimed = alerts.claimDue(claimAt(2001, 2061, "t1"));
  CPPUNIT_ASSERT(claimed);
  CPPUNIT_ASSERT_EQUAL(std::string("d-1"), claimed->id);
  CPPUNIT_ASSERT_EQUAL(std::int64_t{1}, claimed->attempts);
  CPPUNIT_ASSERT_EQUAL(std::string("t1"), claimed->lease_token);
  CPPUNIT_ASSERT_EQUAL(std::string("d-2"), alerts.claimDue(claimAt(2001, 2061, "t2"))->id);
  CPPUNIT_ASSERT(!alerts.claimDue(claimAt(2001, 2061)));
  // An unfinished lease runs out: the same delivery is taken again.
  const auto again = alerts.claimDue(claimAt(2061, 2121, "t3"));
  CPPUNIT_ASSERT(again);
  CPPUNIT_ASSERT_EQUAL(std::int64_t{2}, again->attempts);

  CPPUNIT_ASSERT(
      alerts.finishAttempt("d-1", "t3", "pending", 2200, 503, "the target answered 503"));
  CPPUNIT_ASSERT(alerts.finishAttempt("d-2", "t2", "delivered", 2061, 204, ""));
  const auto listed = alerts.deliveriesOf(*first, 100);
  CPPUNIT_ASSERT_EQUAL(std::size_t{2}, listed.size());
  CPPUNIT_ASSERT_EQUAL(std::string("d-2"), listed[0].id);  // newest first
  CPPUNIT_ASSERT_EQUAL(std::string("delivered"), listed[0].status);
  CPPUNIT_ASSERT_EQUAL(std::int64_t{204}, *listed[0].response_status);
  CPPUNIT_ASSERT_EQUAL(std::string("pending"), listed[1].status);
  CPPUNIT_ASSERT_EQUAL(std::string("the target answered 503"), listed[1].last_error);
  CPPUNIT_ASSERT_EQUAL(std::size_t{1}, alerts.deliveriesOf(*first, 1).size());
  CPPUNIT_ASSERT_EQUAL(std::int64_t{2200}, *alerts.nextDueAt());

  // Deleting a rule takes its deliveries; a firing of a deleted rule queues nothing.
  CPPUNIT_ASSERT(alerts.deleteRule(*first));
  CPPUNIT_ASSERT_EQUAL(std::int64_t{5}, alerts.rulesRevision());
  CPPUNIT_ASSERT(!alerts.deleteRule(*first));
  CPPUNIT_ASSERT(!alerts.rule(*first));
  CPPUNIT_ASSERT(alerts.deliveriesOf(*first, 100).empty());
  alerts.recordEvaluation({}, {deliveryOf("d-3", *first, alice, 3000)});
  CPPUNIT_ASSERT(!alerts.nextDueAt());
}

// Issue 31: a worker whose attempt overran its lease (another took the delivery) must not
// overwrite the newer attempt's record, and the delivery is not taken again while the
// newer lease lives.
void StoreContract::testAlertLateWorkerCannotOverwriteNewerAttempt() {
  if (skipped()) return;
  const auto alice = db_->users().createUser("alice@example.com", "A", "", 1000).id;
  auto& alerts = db_->alerts();
  const auto rule = *alerts.insertRule(ruleOf(alice, 7), 10);
  alerts.recordEvaluation({}, {deliveryOf("d-1", rule, alice, 2000)});

  CPPUNIT_ASSERT(alerts.claimDue(claimAt(2000, 2030, "first")));
  CPPUNIT_ASSERT(!alerts.claimDue(claimAt(2029, 2059, "early")));      // leased: not taken
  const auto second = alerts.claimDue(claimAt(2030, 2060, "second"));  // the lease ran out
  CPPUNIT_ASSERT(second);
  CPPUNIT_ASSERT_EQUAL(std::int64_t{2}, second->attempts);
  CPPUNIT_ASSERT(!alerts.claimDue(claimAt(2031, 2061, "third")));

  // The first worker comes back late: its outcome is dropped, the lease stays the second's.
  CPPUNIT_ASSERT(!alerts.finishAttempt("d-1", "first", "failed", 2031, 404, "late"));
  auto listed = alerts.deliveriesOf(rule, 10);
  CPPUNIT_ASSERT_EQUAL(std::string("pending"), listed[0].status);
  CPPUNIT_ASSERT_EQUAL(std::string(""), listed[0].last_error);
  CPPUNIT_ASSERT(!alerts.claimDue(claimAt(2040, 2070, "fourth")));

  CPPUNIT_ASSERT(alerts.finishAttempt("d-1", "second", "delivered", 2041, 204, ""));
  listed = alerts.deliveriesOf(rule, 10);
  CPPUNIT_ASSERT_EQUAL(std::string("delivered"), listed[0].status);
  // Finished: the token is spent, a replay of either worker writes nothing.
  CPPUNIT_ASSERT(!alerts.finishAttempt("d-1", "second", "failed", 2042, 500, "replay"));
  CPPUNIT_ASSERT(!alerts.finishAttempt("d-1", "first", "failed", 2042, 500, "replay"));
  CPPUNIT_ASSERT_EQUAL(std::string("delivered"), alerts.deliveriesOf(rule, 10)[0].status);
}

// Issue 31: one user's attempts in flight are capped in the claim itself; another user's
// due delivery is taken even when it is due later, and the capped user's turn comes back
// when an attempt ends or its lease runs out.
void StoreContract::testAlertClaimSkipsUsersAtTheirShare() {
  if (skipped()) return;
  auto& users = db_->users();
  const auto alice = users.createUser("alice@example.com", "A", "", 1000).id;
  const auto bob = users.createUser("bob@example.com", "B", "", 1000).id;
  auto& alerts = db_->alerts();
  const auto alices = *alerts.insertRule(ruleOf(alice, 7), 10);
  const auto bobs = *alerts.insertRule(ruleOf(bob, 7), 10);
  alerts.recordEvaluation(
      {}, {deliveryOf("a-1", alices, alice, 2000), deliveryOf("a-2", alices, alice, 2001),
           deliveryOf("a-3", alices, alice, 2002), deliveryOf("b-1", bobs, bob, 2003)});

  CPPUNIT_ASSERT_EQUAL(std::string("a-1"), alerts.claimDue(claimAt(2010, 2040, "1", 2))->id);
  CPPUNIT_ASSERT_EQUAL(std::string("a-2"), alerts.claimDue(claimAt(2010, 2040, "2", 2))->id);
  // Alice holds her share: Bob's later delivery comes before her third.
  CPPUNIT_ASSERT_EQUAL(std::string("b-1"), alerts.claimDue(claimAt(2010, 2040, "3", 2))->id);
  CPPUNIT_ASSERT(!alerts.claimDue(claimAt(2010, 2040, "4", 2)));
  // Without a limit she would get it.
  CPPUNIT_ASSERT_EQUAL(std::string("a-3"), alerts.claimDue(claimAt(2010, 2040, "5", 0))->id);
  CPPUNIT_ASSERT(alerts.finishAttempt("a-3", "5", "pending", 2011, std::nullopt, "timeout"));
  CPPUNIT_ASSERT(!alerts.claimDue(claimAt(2012, 2042, "6", 2)));
  // One of her attempts ends: her turn is back.
  CPPUNIT_ASSERT(alerts.finishAttempt("a-1", "1", "pending", 2500, std::nullopt, "timeout"));
  CPPUNIT_ASSERT_EQUAL(std::string("a-3"), alerts.claimDue(claimAt(2013, 2043, "7", 2))->id);
  // Leases that ran out count no more: a-2 (lease 2040) is due again and free.
  CPPUNIT_ASSERT_EQUAL(std::string("a-2"), alerts.claimDue(claimAt(2041, 2071, "8", 2))->id);
}

// Issue 31: finished deliveries go after the retention; pending ones (even old ones, even
// leased) stay.
void StoreContract::testAlertPruneKeepsPendingAndRecent() {
  if (skipped()) return;
  const auto alice = db_->users().createUser("alice@example.com", "A", "", 1000).id;
  auto& alerts = db_->alerts();
  const auto rule = *alerts.insertRule(ruleOf(alice, 7), 10);
  alerts.recordEvaluation(
      {}, {deliveryOf("old-ok", rule, alice, 1000), deliveryOf("old-failed", rule, alice, 1001),
           deliveryOf("old-pending", rule, alice, 1002), deliveryOf("new-ok", rule, alice, 1003)});
  CPPUNIT_ASSERT(alerts.claimDue(claimAt(1100, 1130, "1")));
  CPPUNIT_ASSERT(alerts.finishAttempt("old-ok", "1", "delivered", 1100, 204, ""));
  CPPUNIT_ASSERT(alerts.claimDue(claimAt(1100, 1130, "2")));
  CPPUNIT_ASSERT(alerts.finishAttempt("old-failed", "2", "failed", 1100, 404, "404"));
  CPPUNIT_ASSERT(alerts.claimDue(claimAt(1100, 1130, "3")));
  CPPUNIT_ASSERT(alerts.finishAttempt("old-pending", "3", "pending", 1200, 503, "503"));
  // old-pending is not due before 1200: new-ok is next.
  CPPUNIT_ASSERT_EQUAL(std::string("new-ok"), alerts.claimDue(claimAt(1150, 1180, "4"))->id);
  CPPUNIT_ASSERT(alerts.finishAttempt("new-ok", "4", "delivered", 1150, 204, ""));

  CPPUNIT_ASSERT_EQUAL(std::size_t{0}, alerts.pruneDeliveries(1100));  // strictly before
  CPPUNIT_ASSERT_EQUAL(std::size_t{2}, alerts.pruneDeliveries(1101));
  std::vector<std::string> left;
  for (const auto& d : alerts.deliveriesOf(rule, 10)) left.push_back(d.id);
  CPPUNIT_ASSERT_EQUAL(std::size_t{2}, left.size());
  CPPUNIT_ASSERT_EQUAL(std::string("new-ok"), left[0]);
  CPPUNIT_ASSERT_EQUAL(std::string("old-pending"), left[1]);
  CPPUNIT_ASSERT_EQUAL(std::size_t{1}, alerts.pruneDeliveries(100000));  // never pending
  CPPUNIT_ASSERT_EQUAL(std::string("old-pending"), alerts.deliveriesOf(rule, 10)[0].id);
}

}  // namespace skinpulse::test
