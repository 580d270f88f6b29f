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
  CPPUNIT_ASSERT(!alerts.claimDue(1999, 2059));
  const auto claimed = alerts.claimDue(2001, 2061);
  CPPUNIT_ASSERT(claimed);
  CPPUNIT_ASSERT_EQUAL(std::string("d-1"), claimed->id);
  CPPUNIT_ASSERT_EQUAL(std::int64_t{1}, claimed->attempts);
  CPPUNIT_ASSERT_EQUAL(std::string("d-2"), alerts.claimDue(2001, 2061)->id);
  CPPUNIT_ASSERT(!alerts.claimDue(2001, 2061));
  // An unfinished lease runs out: the same delivery is taken again.
  const auto again = alerts.claimDue(2061, 2121);
  CPPUNIT_ASSERT(again);
  CPPUNIT_ASSERT_EQUAL(std::int64_t{2}, again->attempts);

  alerts.finishAttempt("d-1", "pending", 2200, 503, "the target answered 503");
  alerts.finishAttempt("d-2", "delivered", 2061, 204, "");
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

}  // namespace skinpulse::test
