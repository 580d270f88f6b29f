#include "alerts/AlertsOptions.hpp"

namespace skinpulse::alerts {

const common::OptionTable<AlertsOptions>& alertsOptionTable() {
  using T = common::OptionType;
  static const common::OptionTable<AlertsOptions> table = {
      {{"alerts.max_rules_per_user", T::kInteger, 1, 100000, nullptr, "100",
        "Alert rules one user may keep; one more is refused (409 alert_limit)."},
       &AlertsOptions::max_rules_per_user},
      {{"alerts.allow_private_targets", T::kBoolean, 0, 0, nullptr, "false",
        "Let webhook, Discord and Telegram targets be http:// and resolve to private, "
        "loopback or link-local addresses (tests, intranets). Off, every delivery checks "
        "that its target resolves to public addresses only."},
       &AlertsOptions::allow_private_targets},
      {{"alerts.delivery_workers", T::kInteger, 1, 64, nullptr, "4",
        "Threads that send alert deliveries from the outbox; each sends one at a time, "
        "within a total deadline of 10 s per attempt."},
       &AlertsOptions::delivery_workers},
      {{"alerts.max_workers_per_user", T::kInteger, 0, 64, nullptr, "0",
        "Deliveries of one user sent at once (over every instance sharing the database), "
        "so one user's slow targets cannot hold every worker; 0 = half the delivery "
        "workers, rounded up."},
       &AlertsOptions::max_workers_per_user},
      {{"alerts.retry_base_seconds", T::kInteger, 1, 3600, nullptr, "60",
        "First retry delay of a failed delivery (timeout, 429, 5xx); it doubles per "
        "attempt up to 6 hours, at most 10 attempts. Lower only for tests."},
       &AlertsOptions::retry_base_seconds},
      {{"alerts.delivery_retention_days", T::kInteger, 0, 3650, nullptr, "30",
        "Delivered and failed deliveries are deleted this many days after their last "
        "attempt (pending ones never); 0 keeps them for ever."},
       &AlertsOptions::delivery_retention_days},
      {{"alerts.telegram_api_url", T::kUrl, 0, 0, "TELEGRAM_API_URL", "https://api.telegram.org",
        "Base address of the Telegram Bot API; a message is a POST to "
        "{base}/bot<token>/sendMessage."},
       &AlertsOptions::telegram_api_url},
  };
  return table;
}

}  // namespace skinpulse::alerts
