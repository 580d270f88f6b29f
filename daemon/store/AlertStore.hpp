#pragma once

// AlertStore: alert rules, their edge state and the delivery outbox (docs/api.md §13,
// share/sql/*/NNN_alerts.sql). Thread-safe. The alerts feature (daemon/alerts) owns the
// meaning of the JSON columns; this layer only keeps them.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace skinpulse::store {

struct AlertRuleRecord {
  std::int64_t id = 0;
  std::string user_id;
  std::int64_t item_id = 0;
  std::string condition;  ///< JSON
  std::string channels;   ///< JSON, secrets included
  std::int64_t cooldown_seconds = 0;
  bool enabled = true;
  std::int64_t created_at = 0;
  std::optional<std::int64_t> last_fired_at;
  bool last_state = false;
};

struct AlertDeliveryRecord {
  std::string id;  ///< the delivery id (X-Skinpulse-Delivery)
  std::int64_t rule_id = 0;
  std::string user_id;
  std::string channel_type;
  std::string channel;  ///< JSON of the target, secrets included
  std::string body;
  std::string status = "pending";  ///< pending, delivered, failed
  std::int64_t attempts = 0;
  std::int64_t next_attempt_at = 0;
  std::int64_t created_at = 0;
  std::optional<std::int64_t> last_attempt_at;
  std::optional<std::int64_t> response_status;
  std::string last_error;
  /// The token of the attempt that holds the lease (set by claimDue, cleared when the
  /// attempt is recorded): finishAttempt writes only while the row still carries it.
  std::string lease_token;
};

/// What a delivery worker asks of claimDue.
struct DeliveryClaim {
  std::int64_t now = 0;          ///< Unix seconds: rows due at or before it are taken
  std::int64_t lease_until = 0;  ///< the attempt's deadline plus a margin
  std::string token;             ///< unique per attempt (DeliveryWorkers makes it)
  /// Attempts of one user in flight at once (leases not yet run out, every instance);
  /// the claim skips users at it. 0 = no limit.
  std::int64_t max_per_user = 0;
};

/// A rule's edge state after an evaluation; `fired_at` set when it fired.
struct AlertStateChange {
  std::int64_t rule_id = 0;
  bool state = false;
  std::optional<std::int64_t> fired_at;
};

class AlertStore {
 public:
  virtual ~AlertStore() = default;

  /// Inserts `rule` with a new id (returned) unless its user already has `max_per_user`
  /// rules: then nothing is written and the answer is empty. Atomic across instances.
  /// Every rule write bumps rulesRevision(); `revision`, when given, gets the new value.
  virtual std::optional<std::int64_t> insertRule(const AlertRuleRecord& rule,
                                                 std::int64_t max_per_user,
                                                 std::int64_t* revision = nullptr) = 0;
  /// The user's rules, by id.
  virtual std::vector<AlertRuleRecord> rulesOf(const std::string& user_id) = 0;
  virtual std::optional<AlertRuleRecord> rule(std::int64_t id) = 0;
  /// Every rule (start-up: the evaluator's index).
  virtual std::vector<AlertRuleRecord> allRules() = 0;
  /// Writes item_id, condition, channels, cooldown_seconds, enabled and last_state.
  virtual void updateRule(const AlertRuleRecord& rule, std::int64_t* revision = nullptr) = 0;
  /// Deletes the rule and its deliveries; false when it did not exist.
  virtual bool deleteRule(std::int64_t id, std::int64_t* revision = nullptr) = 0;
  /// Counts rule writes (insert, update, delete) of every instance; edge states and
  /// last_fired_at do not count.
  virtual std::int64_t rulesRevision() = 0;

  /// In one transaction: the edge states (and last_fired_at of those that fired) and
  /// the new outbox rows of the firings, so a firing is never recorded without its
  /// deliveries nor delivered without being recorded.
  virtual void recordEvaluation(const std::vector<AlertStateChange>& changes,
                                const std::vector<AlertDeliveryRecord>& deliveries) = 0;
  /// Takes the pending delivery due first (next_attempt_at <= now) of a user with fewer
  /// than `max_per_user` attempts in flight, counts the attempt and leases it to `token`
  /// until `lease_until` (a worker that dies leaves it to be taken again then). Empty
  /// when none is due, or every due one belongs to a user at the limit.
  virtual std::optional<AlertDeliveryRecord> claimDue(const DeliveryClaim& claim) = 0;
  /// Records an attempt's outcome: `status` and, for pending, when to try again; ends the
  /// lease. Only while the row is still leased to `lease_token`: false (nothing written)
  /// when the lease ran out and another attempt took the delivery.
  virtual bool finishAttempt(const std::string& id, const std::string& lease_token,
                             const std::string& status, std::int64_t next_attempt_at,
                             std::optional<std::int64_t> response_status,
                             const std::string& error) = 0;
  /// The rule's newest `limit` deliveries, newest first.
  virtual std::vector<AlertDeliveryRecord> deliveriesOf(std::int64_t rule_id,
                                                        std::size_t limit) = 0;
  /// When the next pending delivery is due, if any.
  virtual std::optional<std::int64_t> nextDueAt() = 0;
  /// Deletes delivered and failed deliveries whose last attempt was before
  /// `finished_before`; pending ones are never pruned. Returns how many went.
  virtual std::size_t pruneDeliveries(std::int64_t finished_before) = 0;
};

}  // namespace skinpulse::store
