#include "alerts/RuleJson.hpp"

#include "alerts/TargetCheck.hpp"
#include "common/JsonInteger.hpp"
#include "common/Time.hpp"
#include "metrics/Windows.hpp"
#include "net/HttpUrl.hpp"

#include <Poco/JSON/Array.h>
#include <Poco/JSON/Object.h>
#include <Poco/JSON/Parser.h>

#include <cmath>
#include <regex>

namespace skinpulse::alerts {
namespace {

using Poco::Dynamic::Var;
using Poco::JSON::Array;
using Poco::JSON::Object;

constexpr std::int64_t kMaxPriceCents = 1'000'000'000'000;  // ten billion dollars
constexpr std::size_t kMaxUrlBytes = 2048;
constexpr std::size_t kMaxSourceBytes = 64;

Object::Ptr objectOf(const Var& value, const std::string& field) {
  if (value.type() != typeid(Object::Ptr)) throw InvalidAlert(field, "must be an object");
  auto object = value.extract<Object::Ptr>();
  if (object.isNull()) throw InvalidAlert(field, "must be an object");
  return object;
}

std::string textOf(const Var& value, const std::string& field, std::size_t max_bytes) {
  if (!value.isString()) throw InvalidAlert(field, "must be a string");
  auto text = value.convert<std::string>();
  if (text.empty()) throw InvalidAlert(field, "must not be empty");
  if (text.size() > max_bytes) {
    throw InvalidAlert(field, "must be at most " + std::to_string(max_bytes) + " bytes");
  }
  for (unsigned char c : text) {
    if (c < 0x20 || c == 0x7f) throw InvalidAlert(field, "must not contain control characters");
  }
  return text;
}

std::int64_t integerOf(const Var& value, const std::string& field, std::int64_t min,
                       std::int64_t max) {
  const auto number = common::jsonInteger(value);
  if (!number || *number < min || *number > max) {
    throw InvalidAlert(field,
                       "must be an integer in " + std::to_string(min) + ".." + std::to_string(max));
  }
  return *number;
}

double numberOf(const Var& value, const std::string& field, double max) {
  double number = 0;
  if (value.isBoolean() || !value.isNumeric()) throw InvalidAlert(field, "must be a number");
  try {
    number = value.convert<double>();
  } catch (const Poco::Exception&) {
    throw InvalidAlert(field, "must be a number");
  }
  if (!std::isfinite(number) || number <= 0 || number > max) {
    throw InvalidAlert(field, "must be a number above 0 and at most " +
                                  std::to_string(static_cast<long long>(max)));
  }
  return number;
}

bool booleanOf(const Var& value, const std::string& field) {
  if (!value.isBoolean()) throw InvalidAlert(field, "must be true or false");
  return value.convert<bool>();
}

void refuseUnknown(const Object& object, const std::string& prefix,
                   std::initializer_list<std::string_view> known) {
  for (const auto& [name, value] : object) {
    (void)value;
    bool listed = false;
    for (auto k : known) listed = listed || name == k;
    if (!listed) throw InvalidAlert(prefix + name, "is not a field of an alert rule");
  }
}

std::size_t windowOf(const Object& object, const std::string& prefix) {
  if (!object.has("window")) return *metrics::windowIndex("24h");
  const auto name = textOf(object.get("window"), prefix + "window", 8);
  const auto index = metrics::windowIndex(name);
  if (!index) throw InvalidAlert(prefix + "window", "must be 1h, 24h or 7d");
  return *index;
}

Condition conditionOf(const Var& value) {
  const auto object = objectOf(value, "condition");
  if (!object->has("type")) throw InvalidAlert("condition.type", "is required");
  const auto type = textOf(object->get("type"), "condition.type", 32);
  Condition c;
  const std::string p = "condition.";
  if (type == "price_above" || type == "price_below") {
    refuseUnknown(*object, p, {"type", "value", "source"});
    c.type = type == "price_above" ? ConditionType::kPriceAbove : ConditionType::kPriceBelow;
    if (!object->has("value")) throw InvalidAlert("condition.value", "is required");
    c.value = integerOf(object->get("value"), "condition.value", 1, kMaxPriceCents);
    if (object->has("source") && !object->get("source").isEmpty()) {
      c.source = textOf(object->get("source"), "condition.source", kMaxSourceBytes);
    }
  } else if (type == "percent_change") {
    refuseUnknown(*object, p, {"type", "window", "threshold", "direction"});
    c.type = ConditionType::kPercentChange;
    c.window = windowOf(*object, p);
    if (!object->has("threshold")) throw InvalidAlert("condition.threshold", "is required");
    c.threshold = numberOf(object->get("threshold"), "condition.threshold", 100000);
    c.direction = Direction::kAny;
    if (object->has("direction")) {
      const auto d = textOf(object->get("direction"), "condition.direction", 8);
      if (d == "up") {
        c.direction = Direction::kUp;
      } else if (d == "down") {
        c.direction = Direction::kDown;
      } else if (d != "any") {
        throw InvalidAlert("condition.direction", "must be up, down or any");
      }
    }
  } else if (type == "bollinger_break") {
    refuseUnknown(*object, p, {"type", "window"});
    c.type = ConditionType::kBollingerBreak;
    c.window = windowOf(*object, p);
  } else if (type == "spread_above") {
    refuseUnknown(*object, p, {"type", "threshold"});
    c.type = ConditionType::kSpreadAbove;
    if (!object->has("threshold")) throw InvalidAlert("condition.threshold", "is required");
    c.threshold = numberOf(object->get("threshold"), "condition.threshold", 100000);
  } else if (type == "volatility_rank") {
    refuseUnknown(*object, p, {"type", "window", "top"});
    c.type = ConditionType::kVolatilityRank;
    c.window = windowOf(*object, p);
    c.top = object->has("top")
                ? static_cast<int>(integerOf(object->get("top"), "condition.top", 1, 100))
                : 20;
  } else {
    throw InvalidAlert("condition.type",
                       "must be price_above, price_below, percent_change, bollinger_break, "
                       "spread_above or volatility_rank");
  }
  return c;
}

std::string targetUrlOf(const Var& value, const std::string& field, const ParseOptions& options) {
  auto url = textOf(value, field, kMaxUrlBytes);
  const auto parsed = net::parseHttpUrl(url);
  if (!parsed) throw InvalidAlert(field, "must be an absolute https:// URL without user info");
  if (!parsed->secure && !options.allow_private_targets) {
    throw InvalidAlert(field, "must be https");
  }
  if (!options.allow_private_targets && isPrivateHostLiteral(parsed->host)) {
    throw InvalidAlert(field, "must name a public address");
  }
  return url;
}

Channel channelOf(const Var& value, const std::string& field, const ParseOptions& options,
                  bool stored) {
  const auto object = objectOf(value, field);
  if (!object->has("type")) throw InvalidAlert(field + ".type", "is required");
  const auto type = textOf(object->get("type"), field + ".type", 16);
  const std::string p = field + ".";
  Channel c;
  if (type == "webhook") {
    if (stored) {
      refuseUnknown(*object, p, {"type", "url", "secret"});
    } else {
      refuseUnknown(*object, p, {"type", "url"});
    }
    c.type = ChannelType::kWebhook;
    if (!object->has("url")) throw InvalidAlert(p + "url", "is required");
    c.url = targetUrlOf(object->get("url"), p + "url", options);
    if (stored && object->has("secret")) c.secret = object->getValue<std::string>("secret");
  } else if (type == "discord") {
    refuseUnknown(*object, p, {"type", "url"});
    c.type = ChannelType::kDiscord;
    if (!object->has("url")) throw InvalidAlert(p + "url", "is required");
    c.url = targetUrlOf(object->get("url"), p + "url", options);
  } else if (type == "telegram") {
    refuseUnknown(*object, p, {"type", "bot_token", "chat_id"});
    c.type = ChannelType::kTelegram;
    if (!object->has("bot_token")) throw InvalidAlert(p + "bot_token", "is required");
    if (!object->has("chat_id")) throw InvalidAlert(p + "chat_id", "is required");
    c.bot_token = textOf(object->get("bot_token"), p + "bot_token", 128);
    static const std::regex kToken(R"([0-9]{1,20}:[A-Za-z0-9_-]{20,100})");
    if (!std::regex_match(c.bot_token, kToken)) {
      throw InvalidAlert(p + "bot_token", "must look like 123456:ABC-DEF... (a bot token)");
    }
    const auto& chat = object->get("chat_id");
    if (const auto number = common::jsonInteger(chat)) {
      c.chat_id = std::to_string(*number);
    } else {
      c.chat_id = textOf(chat, p + "chat_id", 64);
    }
    static const std::regex kChat(R"(-?[0-9]{1,20}|@[A-Za-z0-9_]{4,32})");
    if (!std::regex_match(c.chat_id, kChat)) {
      throw InvalidAlert(p + "chat_id", "must be a numeric chat id or @channelname");
    }
  } else if (type == "ws") {
    refuseUnknown(*object, p, {"type"});
    c.type = ChannelType::kWs;
  } else {
    throw InvalidAlert(p + "type", "must be webhook, discord, telegram or ws");
  }
  return c;
}

std::vector<Channel> channelsOf(const Var& value, const ParseOptions& options, bool stored) {
  if (value.type() != typeid(Array::Ptr)) throw InvalidAlert("channels", "must be an array");
  const auto array = value.extract<Array::Ptr>();
  if (array.isNull()) throw InvalidAlert("channels", "must be an array");
  if (array->size() == 0 || array->size() > kMaxChannels) {
    throw InvalidAlert("channels", "must hold 1 to " + std::to_string(kMaxChannels) + " channels");
  }
  std::vector<Channel> channels;
  for (std::size_t i = 0; i < array->size(); ++i) {
    channels.push_back(channelOf(array->get(static_cast<unsigned>(i)),
                                 "channels[" + std::to_string(i) + "]", options, stored));
  }
  return channels;
}

Var parseJson(std::string_view text) {
  Poco::JSON::Parser parser;
  return parser.parse(std::string(text));
}

void writeCondition(common::JsonWriter& json, const Condition& c) {
  json.beginObject().key("type").value(conditionTypeName(c.type));
  switch (c.type) {
    case ConditionType::kPriceAbove:
    case ConditionType::kPriceBelow:
      json.key("value").value(c.value).key("source");
      if (c.source) {
        json.value(*c.source);
      } else {
        json.null();
      }
      break;
    case ConditionType::kPercentChange:
      json.key("window")
          .value(metrics::kWindows[c.window].name)
          .key("threshold")
          .value(c.threshold)
          .key("direction")
          .value(directionName(c.direction));
      break;
    case ConditionType::kBollingerBreak:
      json.key("window").value(metrics::kWindows[c.window].name);
      break;
    case ConditionType::kSpreadAbove:
      json.key("threshold").value(c.threshold);
      break;
    case ConditionType::kVolatilityRank:
      json.key("window").value(metrics::kWindows[c.window].name).key("top").value(c.top);
      break;
  }
  json.endObject();
}

enum class ChannelView { kStored, kAnswer, kCreated };

void writeChannel(common::JsonWriter& json, const Channel& c, ChannelView view) {
  json.beginObject().key("type").value(channelTypeName(c.type));
  switch (c.type) {
    case ChannelType::kWebhook:
      json.key("url").value(c.url);
      if (view == ChannelView::kStored || (view == ChannelView::kCreated && !c.secret.empty())) {
        json.key("secret").value(c.secret);
      }
      break;
    case ChannelType::kDiscord:
      json.key("url").value(view == ChannelView::kStored ? c.url : redactedDiscordUrl(c.url));
      break;
    case ChannelType::kTelegram:
      if (view == ChannelView::kStored) json.key("bot_token").value(c.bot_token);
      json.key("chat_id").value(c.chat_id);
      break;
    case ChannelType::kWs:
      break;
  }
  json.endObject();
}

}  // namespace

const char* conditionTypeName(ConditionType type) {
  switch (type) {
    case ConditionType::kPriceAbove:
      return "price_above";
    case ConditionType::kPriceBelow:
      return "price_below";
    case ConditionType::kPercentChange:
      return "percent_change";
    case ConditionType::kBollingerBreak:
      return "bollinger_break";
    case ConditionType::kSpreadAbove:
      return "spread_above";
    case ConditionType::kVolatilityRank:
      return "volatility_rank";
  }
  return "?";
}

const char* channelTypeName(ChannelType type) {
  switch (type) {
    case ChannelType::kWebhook:
      return "webhook";
    case ChannelType::kDiscord:
      return "discord";
    case ChannelType::kTelegram:
      return "telegram";
    case ChannelType::kWs:
      return "ws";
  }
  return "?";
}

const char* directionName(Direction direction) {
  switch (direction) {
    case Direction::kUp:
      return "up";
    case Direction::kDown:
      return "down";
    case Direction::kAny:
      return "any";
  }
  return "?";
}

RuleInput parseRuleBody(std::string_view body, bool require_all, const ParseOptions& options) {
  const auto object = common::parseObjectBody(body);
  refuseUnknown(*object, "",
                {"item_id", "condition", "channels", "cooldown_seconds", "enabled", "id",
                 "created_at", "last_fired_at"});
  RuleInput input;
  if (object->has("item_id")) {
    input.item_id = integerOf(object->get("item_id"), "item_id", 1, INT64_MAX);
  }
  if (object->has("condition")) input.condition = conditionOf(object->get("condition"));
  if (object->has("channels")) input.channels = channelsOf(object->get("channels"), options, false);
  if (object->has("cooldown_seconds")) {
    input.cooldown_seconds =
        integerOf(object->get("cooldown_seconds"), "cooldown_seconds", 0, kMaxCooldownSeconds);
  }
  if (object->has("enabled")) input.enabled = booleanOf(object->get("enabled"), "enabled");
  if (require_all) {
    if (!input.item_id) throw InvalidAlert("item_id", "is required");
    if (!input.condition) throw InvalidAlert("condition", "is required");
    if (!input.channels) throw InvalidAlert("channels", "is required");
  }
  return input;
}

std::string conditionJson(const Condition& condition) {
  common::JsonWriter json;
  writeCondition(json, condition);
  return json.take();
}

std::string storedChannelsJson(const std::vector<Channel>& channels) {
  common::JsonWriter json;
  json.beginArray();
  for (const auto& c : channels) writeChannel(json, c, ChannelView::kStored);
  json.endArray();
  return json.take();
}

Condition storedCondition(std::string_view json) {
  try {
    return conditionOf(parseJson(json));
  } catch (const std::exception& e) {
    throw std::runtime_error(std::string("stored alert condition unreadable: ") + e.what());
  }
}

std::vector<Channel> storedChannels(std::string_view json) {
  try {
    // Stored rules passed the checks when they were written; the target rules are
    // applied again at delivery time.
    return channelsOf(parseJson(json), ParseOptions{true}, true);
  } catch (const std::exception& e) {
    throw std::runtime_error(std::string("stored alert channels unreadable: ") + e.what());
  }
}

std::string redactedDiscordUrl(std::string_view url) {
  const auto slash = url.rfind('/');
  if (slash == std::string_view::npos || slash + 1 >= url.size()) return std::string(url);
  return std::string(url.substr(0, slash + 1)) + "\xe2\x80\xa6";
}

void writeRule(common::JsonWriter& json, const Rule& rule, bool show_webhook_secrets) {
  json.beginObject().key("id").value(rule.id).key("item_id").value(rule.item_id).key("condition");
  writeCondition(json, rule.condition);
  json.key("channels").beginArray();
  for (const auto& c : rule.channels) {
    writeChannel(json, c, show_webhook_secrets ? ChannelView::kCreated : ChannelView::kAnswer);
  }
  json.endArray()
      .key("cooldown_seconds")
      .value(rule.cooldown_seconds)
      .key("enabled")
      .value(rule.enabled)
      .key("created_at")
      .value(time::formatIso8601(rule.created_at))
      .key("last_fired_at");
  if (rule.last_fired_at) {
    json.value(time::formatIso8601(*rule.last_fired_at));
  } else {
    json.null();
  }
  json.endObject();
}

}  // namespace skinpulse::alerts
