#pragma once

// RuleJson: alert rules in and out of JSON. Parses request bodies with the checks of
// docs/api.md §13 (every refusal names its field), renders rules for answers (secrets
// left out) and for the database (secrets kept: the delivery worker needs them).

#include "alerts/Rule.hpp"
#include "common/Json.hpp"
#include "common/JsonBody.hpp"

#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace skinpulse::alerts {

/// A body field that breaks the rules: 422 invalid_alert, `field()` named in the detail.
class InvalidAlert : public common::InvalidField {
 public:
  using common::InvalidField::InvalidField;
};

/// A body that is not a JSON object: 400 invalid_body.
using common::MalformedBody;

struct ParseOptions {
  /// [alerts] allow_private_targets: http:// targets and private literal addresses pass.
  bool allow_private_targets = false;
};

/// The fields of a POST or PATCH body; absent ones are empty.
struct RuleInput {
  std::optional<std::int64_t> item_id;
  std::optional<Condition> condition;
  std::optional<std::vector<Channel>> channels;
  std::optional<std::int64_t> cooldown_seconds;
  std::optional<bool> enabled;
};

/// Most channels one rule may deliver to.
inline constexpr std::size_t kMaxChannels = 5;
/// Longest cooldown_seconds: 30 days.
inline constexpr std::int64_t kMaxCooldownSeconds = 30 * 86400;

/// Parses a request body. Throws MalformedBody when it is not a JSON object and
/// InvalidAlert for the first bad field (unknown fields included; the read-only id,
/// created_at and last_fired_at are ignored so a client may send a rule back). With
/// `require_all` (POST) item_id, condition and channels must be present. Webhook
/// channels come back without a secret: the caller generates or keeps one.
RuleInput parseRuleBody(std::string_view body, bool require_all, const ParseOptions& options);

/// The stored forms (database columns), secrets included.
std::string conditionJson(const Condition& condition);
std::string storedChannelsJson(const std::vector<Channel>& channels);
/// Parses what conditionJson/storedChannelsJson wrote; throws std::runtime_error.
Condition storedCondition(std::string_view json);
std::vector<Channel> storedChannels(std::string_view json);

/// A Discord webhook URL with its token (the last path segment) replaced by "…": what
/// answers and logs show.
std::string redactedDiscordUrl(std::string_view url);

/// The rule as answers show it: no bot token, Discord URLs redacted; with
/// `show_webhook_secrets` (the answer that created them) each webhook channel with a
/// non-empty `secret` carries it (a PATCH blanks the secrets it kept).
void writeRule(common::JsonWriter& json, const Rule& rule, bool show_webhook_secrets);

}  // namespace skinpulse::alerts
