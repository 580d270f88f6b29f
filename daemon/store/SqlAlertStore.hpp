#pragma once

#include "store/AlertStore.hpp"
#include "store/ConnectionPool.hpp"

namespace skinpulse::store {

/// AlertStore on SQLite or PostgreSQL.
class SqlAlertStore final : public AlertStore {
 public:
  explicit SqlAlertStore(ConnectionPool& pool) : pool_(pool) {}

  std::optional<std::int64_t> insertRule(const AlertRuleRecord& rule, std::int64_t max_per_user,
                                         std::int64_t* revision) override;
  std::vector<AlertRuleRecord> rulesOf(const std::string& user_id) override;
  std::optional<AlertRuleRecord> rule(std::int64_t id) override;
  std::vector<AlertRuleRecord> allRules() override;
  void updateRule(const AlertRuleRecord& rule, std::int64_t* revision) override;
  bool deleteRule(std::int64_t id, std::int64_t* revision) override;
  std::int64_t rulesRevision() override;
  void recordEvaluation(const std::vector<AlertStateChange>& changes,
                        const std::vector<AlertDeliveryRecord>& deliveries) override;
  std::optional<AlertDeliveryRecord> claimDue(const DeliveryClaim& claim) override;
  bool finishAttempt(const std::string& id, const std::string& lease_token,
                     const std::string& status, std::int64_t next_attempt_at,
                     std::optional<std::int64_t> response_status,
                     const std::string& error) override;
  std::vector<AlertDeliveryRecord> deliveriesOf(std::int64_t rule_id, std::size_t limit) override;
  std::optional<std::int64_t> nextDueAt() override;
  std::size_t pruneDeliveries(std::int64_t finished_before) override;

 private:
  std::vector<AlertRuleRecord> selectRules(const std::string& where, const std::string& text,
                                           std::int64_t number, bool by_text);

  ConnectionPool& pool_;
};

}  // namespace skinpulse::store
