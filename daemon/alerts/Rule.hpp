#pragma once

// Rule: one alert rule of docs/api.md §13 — an item, a condition, where to deliver, a
// cooldown — and the state its edge detection keeps (whether the condition held at the
// last evaluation, when it last fired).

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace skinpulse::alerts {

enum class ConditionType {
  kPriceAbove,
  kPriceBelow,
  kPercentChange,
  kBollingerBreak,
  kSpreadAbove,
  kVolatilityRank,
};

enum class Direction { kUp, kDown, kAny };

struct Condition {
  ConditionType type = ConditionType::kPriceAbove;
  std::int64_t value = 0;             ///< price_above/price_below: cents
  std::optional<std::string> source;  ///< price_above/price_below: null = current_price
  std::size_t window = 1;             ///< index into metrics::kWindows (default 24h)
  double threshold = 0;               ///< percent_change, spread_above: percent
  Direction direction = Direction::kAny;
  int top = 20;  ///< volatility_rank
};

enum class ChannelType { kWebhook, kDiscord, kTelegram, kWs };

/// A delivery target. Secret fields (webhook secret, bot token, the token part of a
/// Discord URL) leave the daemon only in the 201/200 answer that created them.
struct Channel {
  ChannelType type = ChannelType::kWs;
  std::string url;        ///< webhook, discord
  std::string secret;     ///< webhook: HMAC-SHA256 key
  std::string bot_token;  ///< telegram
  std::string chat_id;    ///< telegram

  bool operator==(const Channel&) const = default;
};

struct Rule {
  std::int64_t id = 0;
  std::string user_id;
  std::int64_t item_id = 0;
  Condition condition;
  std::vector<Channel> channels;
  std::int64_t cooldown_seconds = 3600;
  bool enabled = true;
  std::int64_t created_at = 0;
  std::optional<std::int64_t> last_fired_at;
  bool last_state = false;  ///< the condition held at the last evaluation
};

/// The wire names: "price_above", "webhook", "up", ...
const char* conditionTypeName(ConditionType type);
const char* channelTypeName(ChannelType type);
const char* directionName(Direction direction);

}  // namespace skinpulse::alerts
