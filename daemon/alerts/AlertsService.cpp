#include "alerts/AlertsService.hpp"

#include "alerts/Signature.hpp"
#include "common/Json.hpp"
#include "common/Log.hpp"
#include "common/Time.hpp"

#include <Poco/UUIDGenerator.h>

#include <algorithm>

namespace skinpulse::alerts {
namespace {

std::string newDeliveryId() {
  return Poco::UUIDGenerator::defaultGenerator().createRandom().toString();
}

// Webhook channels of `next` keep the secret of a webhook of `previous` with the same URL
// and get a new one otherwise; `fresh[i]` says which.
std::vector<bool> assignSecrets(std::vector<Channel>& next, const std::vector<Channel>& previous) {
  std::vector<bool> fresh(next.size(), false);
  for (std::size_t i = 0; i < next.size(); ++i) {
    if (next[i].type != ChannelType::kWebhook) continue;
    for (const auto& old : previous) {
      if (old.type == ChannelType::kWebhook && old.url == next[i].url) next[i].secret = old.secret;
    }
    if (next[i].secret.empty()) {
      next[i].secret = newWebhookSecret();
      fresh[i] = true;
    }
  }
  return fresh;
}

}  // namespace

AlertsService::AlertsService(store::AlertStore& store, const catalog::Catalog& catalog,
                             const prices::LatestPrices& latest, MetricsProvider metrics,
                             const prices::PricePolicy& policy, AlertsOptions options,
                             std::function<std::int64_t()> now, std::function<void()> on_deliveries)
    : store_(store),
      catalog_(catalog),
      latest_(latest),
      metrics_(std::move(metrics)),
      policy_(policy),
      options_(std::move(options)),
      now_(std::move(now)),
      on_deliveries_(std::move(on_deliveries)),
      parse_{options_.allow_private_targets} {}

Rule AlertsService::ruleOf(const store::AlertRuleRecord& r) const {
  Rule rule;
  rule.id = r.id;
  rule.user_id = r.user_id;
  rule.item_id = r.item_id;
  rule.condition = storedCondition(r.condition);
  rule.channels = storedChannels(r.channels);
  rule.cooldown_seconds = r.cooldown_seconds;
  rule.enabled = r.enabled;
  rule.created_at = r.created_at;
  rule.last_fired_at = r.last_fired_at;
  rule.last_state = r.last_state;
  return rule;
}

store::AlertRuleRecord AlertsService::recordOf(const Rule& rule) const {
  return store::AlertRuleRecord{rule.id,
                                rule.user_id,
                                rule.item_id,
                                conditionJson(rule.condition),
                                storedChannelsJson(rule.channels),
                                rule.cooldown_seconds,
                                rule.enabled,
                                rule.created_at,
                                rule.last_fired_at,
                                rule.last_state};
}

void AlertsService::load() {
  // The revision first: a write landing while the rules are read moves it again, and
  // the next syncRules() reloads.
  const std::int64_t revision = store_.rulesRevision();
  const auto records = store_.allRules();
  std::lock_guard lock(mutex_);
  known_revision_ = revision;
  evaluator_.clear();
  channels_.clear();
  std::size_t unreadable = 0;
  for (const auto& record : records) {
    try {
      const Rule rule = ruleOf(record);
      evaluator_.upsert(rule);
      channels_[rule.id] = rule.channels;
    } catch (const std::exception& e) {
      ++unreadable;
      log::main().error("alerts: rule {} skipped: {}", record.id, e.what());
    }
  }
  log::main().info("alerts: {} rule(s) loaded{}", evaluator_.size(),
                   unreadable == 0 ? "" : ", " + std::to_string(unreadable) + " unreadable");
}

void AlertsService::syncRules() {
  const std::int64_t revision = store_.rulesRevision();
  {
    std::lock_guard lock(mutex_);
    if (revision == known_revision_) return;
  }
  log::main().info("alerts: rules changed on another instance; reloading them");
  load();
}

void AlertsService::wrote(std::int64_t revision) {
  if (revision == known_revision_ + 1) known_revision_ = revision;
}

std::vector<Rule> AlertsService::list(const std::string& user_id) {
  std::vector<Rule> rules;
  for (const auto& record : store_.rulesOf(user_id)) rules.push_back(ruleOf(record));
  return rules;
}

std::optional<Rule> AlertsService::get(const std::string& user_id, std::int64_t id) {
  const auto record = store_.rule(id);
  if (!record || record->user_id != user_id) return std::nullopt;
  return ruleOf(*record);
}

Rule AlertsService::create(const std::string& user_id, const RuleInput& input) {
  Rule rule;
  rule.user_id = user_id;
  rule.item_id = *input.item_id;
  if (catalog_.snapshot()->findById(rule.item_id) == nullptr) {
    throw InvalidAlert("item_id", "is not an item of the catalogue");
  }
  rule.condition = *input.condition;
  rule.channels = *input.channels;
  assignSecrets(rule.channels, {});
  rule.cooldown_seconds = input.cooldown_seconds.value_or(3600);
  rule.enabled = input.enabled.value_or(true);
  rule.created_at = now_();
  std::int64_t revision = 0;
  const auto id = store_.insertRule(recordOf(rule), options_.max_rules_per_user, &revision);
  if (!id) {
    throw AlertLimitReached("at most " + std::to_string(options_.max_rules_per_user) +
                            " alert rules per user");
  }
  rule.id = *id;
  std::lock_guard lock(mutex_);
  wrote(revision);
  evaluator_.upsert(rule);
  channels_[rule.id] = rule.channels;
  return rule;
}

std::optional<Rule> AlertsService::patch(const std::string& user_id, std::int64_t id,
                                         const RuleInput& input) {
  auto rule = get(user_id, id);
  if (!rule) return std::nullopt;
  bool reset = false;  // a changed question starts from "did not hold"
  if (input.item_id && *input.item_id != rule->item_id) {
    if (catalog_.snapshot()->findById(*input.item_id) == nullptr) {
      throw InvalidAlert("item_id", "is not an item of the catalogue");
    }
    rule->item_id = *input.item_id;
    reset = true;
  }
  if (input.condition) {
    rule->condition = *input.condition;
    reset = true;
  }
  std::vector<bool> fresh(rule->channels.size(), false);
  if (input.channels) {
    auto next = *input.channels;
    fresh = assignSecrets(next, rule->channels);
    rule->channels = std::move(next);
  }
  if (input.cooldown_seconds) rule->cooldown_seconds = *input.cooldown_seconds;
  if (input.enabled && *input.enabled != rule->enabled) {
    rule->enabled = *input.enabled;
    reset = true;
  }
  if (reset) rule->last_state = false;
  std::int64_t revision = 0;
  store_.updateRule(recordOf(*rule), &revision);
  {
    std::lock_guard lock(mutex_);
    wrote(revision);
    evaluator_.upsert(*rule);
    channels_[rule->id] = rule->channels;
  }
  for (std::size_t i = 0; i < rule->channels.size(); ++i) {
    if (!fresh[i]) rule->channels[i].secret.clear();  // shown only when new
  }
  return rule;
}

bool AlertsService::remove(const std::string& user_id, std::int64_t id) {
  const auto record = store_.rule(id);
  if (!record || record->user_id != user_id) return false;
  std::int64_t revision = 0;
  store_.deleteRule(id, &revision);
  std::lock_guard lock(mutex_);
  wrote(revision);
  evaluator_.remove(id);
  channels_.erase(id);
  return true;
}

std::optional<std::vector<store::AlertDeliveryRecord>> AlertsService::deliveries(
    const std::string& user_id, std::int64_t id, std::size_t limit) {
  const auto record = store_.rule(id);
  if (!record || record->user_id != user_id) return std::nullopt;
  return store_.deliveriesOf(id, limit);
}

std::vector<store::AlertDeliveryRecord> AlertsService::outboxRows(
    const Firing& firing, const std::vector<Channel>& channels) const {
  const auto catalog = catalog_.snapshot();
  const auto* item = catalog->findById(firing.item_id);
  const std::string name =
      item != nullptr ? item->record.market_hash_name : "item " + std::to_string(firing.item_id);
  const std::string fired_at = time::formatIso8601(firing.fired_at);
  const std::string condition = conditionJson(firing.condition);
  const Observation observed = render(firing);
  const std::string text = name + ": " + observed.text + " (alert " +
                           std::to_string(firing.rule_id) + ", " + fired_at + ")";

  std::vector<store::AlertDeliveryRecord> rows;
  for (const auto& channel : channels) {
    store::AlertDeliveryRecord row;
    row.id = newDeliveryId();
    row.rule_id = firing.rule_id;
    row.user_id = firing.user_id;
    row.channel_type = channelTypeName(channel.type);
    const std::string stored = storedChannelsJson({channel});
    row.channel = stored.substr(1, stored.size() - 2);  // the one object of the array
    row.next_attempt_at = firing.fired_at;
    row.created_at = firing.fired_at;
    common::JsonWriter json;
    json.beginObject();
    switch (channel.type) {
      case ChannelType::kWebhook:
      case ChannelType::kWs:
        if (channel.type == ChannelType::kWs) json.key("type").value("alert");
        json.key("alert_id")
            .value(firing.rule_id)
            .key("delivery_id")
            .value(row.id)
            .key("item_id")
            .value(firing.item_id)
            .key("market_hash_name")
            .value(name)
            .key("condition")
            .raw(condition)
            .key("observed")
            .raw(observed.json)
            .key("fired_at")
            .value(fired_at);
        if (channel.type == ChannelType::kWs) json.key("message").value(text);
        break;
      case ChannelType::kDiscord:
        json.key("content").value(text);
        break;
      case ChannelType::kTelegram:
        json.key("chat_id").value(channel.chat_id).key("text").value(text);
        break;
    }
    json.endObject();
    row.body = json.take();
    rows.push_back(std::move(row));
  }
  return rows;
}

std::size_t AlertsService::evaluate(const std::vector<std::int64_t>& items, std::int64_t now) {
  syncRules();
  const auto latest = latest_.snapshot();
  const auto metrics = metrics_ ? metrics_() : nullptr;
  const auto order = policy_.referenceOrder(latest->source_names);
  Inputs inputs{latest.get(), metrics.get(), &order, &policy_, now};

  EvaluationResult result;
  std::vector<std::vector<Channel>> channels;  // per firing, copied under the lock
  {
    std::lock_guard lock(mutex_);
    result = evaluator_.evaluate(items, inputs);
    if (result.changes.empty()) return 0;
    for (const auto& firing : result.firings) {
      const auto it = channels_.find(firing.rule_id);
      channels.push_back(it == channels_.end() ? std::vector<Channel>{} : it->second);
    }
  }
  // Rendering the payloads needs no lock: rule changes go on meanwhile.
  std::vector<store::AlertDeliveryRecord> rows;
  const std::size_t fired = result.firings.size();
  for (std::size_t i = 0; i < fired; ++i) {
    auto more = outboxRows(result.firings[i], channels[i]);
    rows.insert(rows.end(), std::make_move_iterator(more.begin()),
                std::make_move_iterator(more.end()));
  }
  const auto& changes = result.changes;
  try {
    store_.recordEvaluation(changes, rows);
  } catch (const std::exception& e) {
    // Nothing was written, but the evaluator has moved on: without a rollback these
    // firings would be lost. Forget the revision so the next evaluation reloads the rules
    // with their stored states first, and sees the same edges again (at least once).
    {
      std::lock_guard lock(mutex_);
      known_revision_ = -1;
    }
    log::main().error("alerts: {} firing(s) not queued, retried at the next evaluation: {}", fired,
                      e.what());
    return 0;
  }
  if (fired > 0) {
    log::main().info("alerts: {} rule(s) fired, {} delivery(ies) queued", fired, rows.size());
    if (on_deliveries_) on_deliveries_();
  }
  return fired;
}

void AlertsService::onCycle(const ingest::CycleUpdate& update) {
  std::vector<std::int64_t> items;
  items.reserve(update.points.size());
  for (const auto& point : update.points) items.push_back(point.item_id);
  std::sort(items.begin(), items.end());
  items.erase(std::unique(items.begin(), items.end()), items.end());
  evaluate(items, update.time);
}

void AlertsService::onReload() {
  if (evaluates_reloads_ && !evaluates_reloads_()) return;
  std::vector<std::int64_t> items;
  {
    std::lock_guard lock(mutex_);
    items = evaluator_.watchedItems();
  }
  evaluate(items, now_());
}

}  // namespace skinpulse::alerts
