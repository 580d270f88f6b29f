#include "store/SqlAlertStore.hpp"

#include "store/NullableInt.hpp"
#include "store/WriteTransaction.hpp"

#include <Poco/Data/Statement.h>

#include <limits>

using Poco::Data::Keywords::bind;
using Poco::Data::Keywords::into;
using Poco::Data::Keywords::now;

namespace skinpulse::store {
namespace {

constexpr const char* kRuleColumns =
    "id, user_id, item_id, condition, channels, cooldown_seconds, enabled, created_at, "
    "last_fired_at, last_state";
constexpr const char* kDeliveryColumns =
    "id, rule_id, user_id, channel_type, channel, body, status, attempts, next_attempt_at, "
    "created_at, last_attempt_at, response_status, last_error";

struct DeliveryColumns {
  std::vector<std::string> id, user_id, channel_type, channel, body, status, last_error;
  std::vector<Poco::Int64> rule_id, attempts, next_attempt_at, created_at;
  std::vector<NullableInt> last_attempt_at, response_status;

  void into(Poco::Data::Statement& s) {
    s.addExtract(Poco::Data::Keywords::into(id));
    s.addExtract(Poco::Data::Keywords::into(rule_id));
    s.addExtract(Poco::Data::Keywords::into(user_id));
    s.addExtract(Poco::Data::Keywords::into(channel_type));
    s.addExtract(Poco::Data::Keywords::into(channel));
    s.addExtract(Poco::Data::Keywords::into(body));
    s.addExtract(Poco::Data::Keywords::into(status));
    s.addExtract(Poco::Data::Keywords::into(attempts));
    s.addExtract(Poco::Data::Keywords::into(next_attempt_at));
    s.addExtract(Poco::Data::Keywords::into(created_at));
    s.addExtract(Poco::Data::Keywords::into(last_attempt_at));
    s.addExtract(Poco::Data::Keywords::into(response_status));
    s.addExtract(Poco::Data::Keywords::into(last_error));
  }

  std::vector<AlertDeliveryRecord> records() const {
    std::vector<AlertDeliveryRecord> out;
    for (std::size_t i = 0; i < id.size(); ++i) {
      out.push_back(AlertDeliveryRecord{id[i], rule_id[i], user_id[i], channel_type[i], channel[i],
                                        body[i], status[i], attempts[i], next_attempt_at[i],
                                        created_at[i], optionalOf(last_attempt_at[i]),
                                        optionalOf(response_status[i]), last_error[i], ""});
    }
    return out;
  }
};

// Bumps the rules' revision inside `tx` and reports the new value.
void bumpRevision(WriteTransaction& tx, std::int64_t* revision) {
  tx.session() << "UPDATE alert_rules_revision SET revision = revision + 1 WHERE id = 1", now;
  std::int64_t value = 0;
  tx.session() << "SELECT revision FROM alert_rules_revision WHERE id = 1", into(value), now;
  if (revision != nullptr) *revision = value;
}

}  // namespace

std::vector<AlertRuleRecord> SqlAlertStore::selectRules(const std::string& where,
                                                        const std::string& text,
                                                        std::int64_t number, bool by_text) {
  std::vector<Poco::Int64> id, item_id, cooldown, enabled, created_at, last_state;
  std::vector<std::string> user_id, condition, channels;
  std::vector<NullableInt> last_fired_at;
  auto lease = pool_.read();
  Poco::Data::Statement statement(lease.session());
  statement << pool_.sql(std::string("SELECT ") + kRuleColumns + " FROM alert_rules " + where +
                         " ORDER BY id"),
      into(id), into(user_id), into(item_id), into(condition), into(channels), into(cooldown),
      into(enabled), into(created_at), into(last_fired_at), into(last_state);
  if (!where.empty()) {
    if (by_text) {
      statement.addBind(bind(text));
    } else {
      statement.addBind(bind(number));
    }
  }
  statement.execute();
  std::vector<AlertRuleRecord> out;
  out.reserve(id.size());
  for (std::size_t i = 0; i < id.size(); ++i) {
    out.push_back(AlertRuleRecord{id[i], user_id[i], item_id[i], condition[i], channels[i],
                                  cooldown[i], enabled[i] != 0, created_at[i],
                                  optionalOf(last_fired_at[i]), last_state[i] != 0});
  }
  return out;
}

std::optional<std::int64_t> SqlAlertStore::insertRule(const AlertRuleRecord& rule,
                                                      std::int64_t max_per_user,
                                                      std::int64_t* revision) {
  WriteTransaction tx(pool_);
  tx.lockTable("alert_rules");  // the count and the new id hold until commit
  std::int64_t count = 0;
  tx.session() << tx.sql("SELECT COUNT(*) FROM alert_rules WHERE user_id = ?"), into(count),
      bind(rule.user_id), now;
  if (count >= max_per_user) return std::nullopt;
  std::int64_t id = 0;
  tx.session() << "SELECT COALESCE(MAX(id), 0) + 1 FROM alert_rules", into(id), now;
  const std::int64_t enabled = rule.enabled ? 1 : 0;
  const std::int64_t state = rule.last_state ? 1 : 0;
  const NullableInt fired = nullableOf(rule.last_fired_at);
  tx.session() << tx.sql(std::string("INSERT INTO alert_rules (") + kRuleColumns +
                         ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"),
      bind(id), bind(rule.user_id), bind(rule.item_id), bind(rule.condition), bind(rule.channels),
      bind(rule.cooldown_seconds), bind(enabled), bind(rule.created_at), bind(fired), bind(state),
      now;
  bumpRevision(tx, revision);
  tx.commit();
  return id;
}

std::vector<AlertRuleRecord> SqlAlertStore::rulesOf(const std::string& user_id) {
  return selectRules("WHERE user_id = ?", user_id, 0, true);
}

std::optional<AlertRuleRecord> SqlAlertStore::rule(std::int64_t id) {
  auto rules = selectRules("WHERE id = ?", "", id, false);
  if (rules.empty()) return std::nullopt;
  return rules.front();
}

std::vector<AlertRuleRecord> SqlAlertStore::allRules() { return selectRules("", "", 0, false); }

void SqlAlertStore::updateRule(const AlertRuleRecord& rule, std::int64_t* revision) {
  WriteTransaction tx(pool_);
  const std::int64_t enabled = rule.enabled ? 1 : 0;
  const std::int64_t state = rule.last_state ? 1 : 0;
  tx.session() << tx.sql(
      "UPDATE alert_rules SET item_id = ?, condition = ?, channels = ?, cooldown_seconds = ?, "
      "enabled = ?, last_state = ? WHERE id = ?"),
      bind(rule.item_id), bind(rule.condition), bind(rule.channels), bind(rule.cooldown_seconds),
      bind(enabled), bind(state), bind(rule.id), now;
  bumpRevision(tx, revision);
  tx.commit();
}

bool SqlAlertStore::deleteRule(std::int64_t id, std::int64_t* revision) {
  WriteTransaction tx(pool_);
  tx.session() << tx.sql("DELETE FROM alert_deliveries WHERE rule_id = ?"), bind(id), now;
  Poco::Data::Statement statement(tx.session());
  statement << tx.sql("DELETE FROM alert_rules WHERE id = ?"), bind(id);
  const std::size_t deleted = statement.execute();
  bumpRevision(tx, revision);
  tx.commit();
  return deleted > 0;
}

std::int64_t SqlAlertStore::rulesRevision() {
  auto lease = pool_.read();
  std::int64_t value = 0;
  lease.session() << "SELECT revision FROM alert_rules_revision WHERE id = 1", into(value), now;
  return value;
}

void SqlAlertStore::recordEvaluation(const std::vector<AlertStateChange>& changes,
                                     const std::vector<AlertDeliveryRecord>& deliveries) {
  if (changes.empty() && deliveries.empty()) return;
  WriteTransaction tx(pool_);
  for (const auto& change : changes) {
    const std::int64_t state = change.state ? 1 : 0;
    if (change.fired_at) {
      tx.session() << tx.sql(
          "UPDATE alert_rules SET last_state = ?, last_fired_at = ? WHERE id = ?"),
          bind(state), bind(*change.fired_at), bind(change.rule_id), now;
    } else {
      tx.session() << tx.sql("UPDATE alert_rules SET last_state = ? WHERE id = ?"), bind(state),
          bind(change.rule_id), now;
    }
  }
  for (const auto& d : deliveries) {
    // A rule deleted while it was evaluated leaves no orphan row behind.
    tx.session() << tx.sql(std::string("INSERT INTO alert_deliveries (") + kDeliveryColumns +
                           ") SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, NULL, '' "
                           "WHERE EXISTS (SELECT 1 FROM alert_rules WHERE id = ?)"),
        bind(d.id), bind(d.rule_id), bind(d.user_id), bind(d.channel_type), bind(d.channel),
        bind(d.body), bind(d.status), bind(d.attempts), bind(d.next_attempt_at), bind(d.created_at),
        bind(d.rule_id), now;
  }
  tx.commit();
}

std::optional<AlertDeliveryRecord> SqlAlertStore::claimDue(const DeliveryClaim& claim) {
  WriteTransaction tx(pool_);
  tx.lockTable("alert_deliveries");  // two instances never claim the same row
  // A user's attempts in flight are the rows whose lease has not run out yet (a lease that
  // ran out belongs to a worker that died or overran: its row is due again, and free).
  const std::int64_t limit =
      claim.max_per_user > 0 ? claim.max_per_user : std::numeric_limits<std::int64_t>::max();
  DeliveryColumns c;
  Poco::Data::Statement statement(tx.session());
  statement << tx.sql(std::string("SELECT ") + kDeliveryColumns +
                      " FROM alert_deliveries WHERE status = 'pending' AND next_attempt_at <= ? "
                      "AND user_id NOT IN (SELECT user_id FROM alert_deliveries "
                      "WHERE status = 'pending' AND leased_until > ? "
                      "GROUP BY user_id HAVING COUNT(*) >= ?) "
                      "ORDER BY next_attempt_at, created_at LIMIT 1"),
      bind(claim.now), bind(claim.now), bind(limit);
  c.into(statement);
  statement.execute();
  auto rows = c.records();
  if (rows.empty()) return std::nullopt;
  auto& row = rows.front();
  row.attempts += 1;
  row.last_attempt_at = claim.now;
  row.next_attempt_at = claim.lease_until;
  row.lease_token = claim.token;
  tx.session() << tx.sql(
      "UPDATE alert_deliveries SET attempts = ?, last_attempt_at = ?, next_attempt_at = ?, "
      "lease_token = ?, leased_until = ? WHERE id = ?"),
      bind(row.attempts), bind(claim.now), bind(claim.lease_until), bind(claim.token),
      bind(claim.lease_until), bind(row.id), now;
  tx.commit();
  return row;
}

bool SqlAlertStore::finishAttempt(const std::string& id, const std::string& lease_token,
                                  const std::string& status, std::int64_t next_attempt_at,
                                  std::optional<std::int64_t> response_status,
                                  const std::string& error) {
  WriteTransaction tx(pool_);
  const NullableInt code = nullableOf(response_status);
  // Compare-and-set on the lease: a newer attempt's token (or a pruned row) wins.
  Poco::Data::Statement statement(tx.session());
  statement << tx.sql(
      "UPDATE alert_deliveries SET status = ?, next_attempt_at = ?, response_status = ?, "
      "last_error = ?, lease_token = '', leased_until = NULL "
      "WHERE id = ? AND lease_token = ? AND status = 'pending'"),
      bind(status), bind(next_attempt_at), bind(code), bind(error), bind(id), bind(lease_token);
  const std::size_t updated = statement.execute();
  tx.commit();
  return updated > 0;
}

std::vector<AlertDeliveryRecord> SqlAlertStore::deliveriesOf(std::int64_t rule_id,
                                                             std::size_t limit) {
  auto lease = pool_.read();
  DeliveryColumns c;
  const auto count = static_cast<std::int64_t>(limit);
  Poco::Data::Statement statement(lease.session());
  statement << pool_.sql(std::string("SELECT ") + kDeliveryColumns +
                         " FROM alert_deliveries WHERE rule_id = ? "
                         "ORDER BY created_at DESC, id DESC LIMIT ?"),
      bind(rule_id), bind(count);
  c.into(statement);
  statement.execute();
  return c.records();
}

std::optional<std::int64_t> SqlAlertStore::nextDueAt() {
  auto lease = pool_.read();
  std::vector<NullableInt> due;
  lease.session() << "SELECT MIN(next_attempt_at) FROM alert_deliveries WHERE status = 'pending'",
      into(due), now;
  if (due.empty()) return std::nullopt;
  return optionalOf(due.front());
}

std::size_t SqlAlertStore::pruneDeliveries(std::int64_t finished_before) {
  WriteTransaction tx(pool_);
  Poco::Data::Statement statement(tx.session());
  statement << tx.sql(
      "DELETE FROM alert_deliveries WHERE status IN ('delivered', 'failed') "
      "AND last_attempt_at < ?"),
      bind(finished_before);
  const std::size_t deleted = statement.execute();
  tx.commit();
  return deleted;
}

}  // namespace skinpulse::store
