#include "alerts/Evaluator.hpp"

#include "common/Json.hpp"
#include "metrics/Windows.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace skinpulse::alerts {
namespace {

constexpr std::int64_t kUnknownSourceFreshSeconds = 86400;

std::string dollars(double cents) {
  char text[48];
  std::snprintf(text, sizeof text, "$%.2f", cents / 100.0);
  return text;
}

std::string percent(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%+.2f %%", value);
  return text;
}

}  // namespace

std::optional<Spread> spreadOf(const std::vector<prices::SourceLatest>& latest,
                               const Inputs& inputs) {
  // Asked for every spread rule of every touched item: one buffer per thread, not one
  // allocation per rule.
  thread_local std::vector<const store::PricePoint*> trusted;
  trusted.clear();
  for (const auto& entry : latest) {
    if (inputs.price_policy == nullptr || inputs.price_policy->trusts(entry.newest, inputs.now)) {
      trusted.push_back(&entry.newest);
    }
  }
  const bool any_ask = std::any_of(trusted.begin(), trusted.end(), [](const store::PricePoint* p) {
    return p->kind == sdk::PriceKind::kAsk;
  });
  Spread spread;
  int count = 0;
  for (const store::PricePoint* point : trusted) {
    if (any_ask && point->kind != sdk::PriceKind::kAsk) continue;  // asks when there are any
    if (point->price <= 0) continue;
    if (count == 0 || point->price < spread.min) {
      spread.min = point->price;
      spread.min_source = point->source;
    }
    if (count == 0 || point->price > spread.max) {
      spread.max = point->price;
      spread.max_source = point->source;
    }
    ++count;
  }
  if (count < 2) return std::nullopt;
  spread.percent =
      static_cast<double>(spread.max - spread.min) * 100.0 / static_cast<double>(spread.min);
  return spread;
}

// What the rules of one item read, each piece looked up once and only when a rule asks.
struct Evaluator::ItemView {
  ItemView(std::int64_t item, const Inputs& in) : item_id(item), inputs(in) {}

  std::int64_t item_id;
  const Inputs& inputs;
  const std::vector<prices::SourceLatest>* latest = nullptr;
  bool latest_done = false;
  std::optional<prices::CurrentPrice> current;
  std::optional<std::optional<Spread>> spread;

  const std::vector<prices::SourceLatest>* prices() {
    if (!latest_done) {
      latest_done = true;
      if (inputs.latest != nullptr) {
        const auto it = inputs.latest->by_item.find(item_id);
        if (it != inputs.latest->by_item.end() && it->second) latest = it->second.get();
      }
    }
    return latest;
  }

  const prices::CurrentPrice& currentPrice() {
    if (!current) {
      const auto* l = prices();
      static const std::vector<std::string> kNoOrder;
      current =
          l == nullptr
              ? prices::CurrentPrice{}
              : skinpulse::prices::currentPrice(
                    *l, inputs.reference_order != nullptr ? *inputs.reference_order : kNoOrder,
                    inputs.now);
    }
    return *current;
  }

  const std::optional<Spread>& spreadNow() {
    if (!spread) {
      const auto* l = prices();
      spread = l == nullptr ? std::nullopt : spreadOf(*l, inputs);
    }
    return *spread;
  }

  const metrics::MetricsSnapshot::Signal* signal(std::size_t window) const {
    if (inputs.metrics == nullptr) return nullptr;
    const auto* s = inputs.metrics->signal(item_id, window);
    return s != nullptr && s->reference ? s : nullptr;
  }
};

namespace {

struct Test {
  bool holds = false;
  Observed observed;  ///< filled only when it holds
};

Test priceTest(const Condition& c, std::optional<std::int64_t> price, const std::string& source) {
  Test t;
  if (!price) return t;
  t.holds = c.type == ConditionType::kPriceAbove ? *price > c.value : *price < c.value;
  if (t.holds) {
    t.observed.value = static_cast<double>(*price);
    t.observed.source = source;
  }
  return t;
}

}  // namespace

void Evaluator::upsert(const Rule& rule) {
  remove(rule.id);
  std::uint32_t index;
  if (!free_.empty()) {
    index = free_.back();
    free_.pop_back();
  } else {
    index = static_cast<std::uint32_t>(slots_.size());
    slots_.emplace_back();
  }
  Slot& s = slots_[index];
  s.id = rule.id;
  s.item_id = rule.item_id;
  s.condition = rule.condition;
  s.cooldown_seconds = rule.cooldown_seconds;
  s.last_fired_at = rule.last_fired_at.value_or(-1);
  s.enabled = rule.enabled;
  s.state = rule.last_state;
  s.used = true;
  s.user_id = rule.user_id;
  by_id_[rule.id] = index;
  by_item_[rule.item_id].push_back(index);
}

void Evaluator::unlink(std::uint32_t index) {
  Slot& s = slots_[index];
  auto it = by_item_.find(s.item_id);
  if (it != by_item_.end()) {
    auto& list = it->second;
    const auto pos = std::find(list.begin(), list.end(), index);
    if (pos != list.end()) {
      *pos = list.back();
      list.pop_back();
    }
    if (list.empty()) by_item_.erase(it);
  }
  by_id_.erase(s.id);
  s = Slot{};
  free_.push_back(index);
}

void Evaluator::remove(std::int64_t rule_id) {
  const auto it = by_id_.find(rule_id);
  if (it != by_id_.end()) unlink(it->second);
}

void Evaluator::clear() {
  slots_.clear();
  free_.clear();
  by_id_.clear();
  by_item_.clear();
}

std::vector<std::int64_t> Evaluator::watchedItems() const {
  std::vector<std::int64_t> items;
  items.reserve(by_item_.size());
  for (const auto& [item, list] : by_item_) {
    for (auto index : list) {
      if (slots_[index].enabled) {
        items.push_back(item);
        break;
      }
    }
  }
  std::sort(items.begin(), items.end());
  return items;
}

EvaluationResult Evaluator::evaluate(const std::vector<std::int64_t>& items, const Inputs& inputs) {
  EvaluationResult result;
  // The top-N of each window as item → rank, built once, only if some rule asks.
  std::array<std::optional<std::unordered_map<std::int64_t, int>>, metrics::kWindowCount> ranks;
  const auto rankOf = [&](std::int64_t item, std::size_t window) -> std::optional<int> {
    if (inputs.metrics == nullptr) return std::nullopt;
    if (!ranks[window]) {
      ranks[window].emplace();
      const auto& ranked = inputs.metrics->ranking(window);
      for (std::size_t i = 0; i < ranked.size(); ++i) {
        (*ranks[window])[ranked[i].item_id] = static_cast<int>(i) + 1;
      }
    }
    const auto it = ranks[window]->find(item);
    if (it == ranks[window]->end()) return std::nullopt;
    return it->second;
  };

  for (const std::int64_t item : items) {
    const auto found = by_item_.find(item);
    if (found == by_item_.end()) continue;
    ItemView view(item, inputs);
    for (const std::uint32_t index : found->second) {
      Slot& s = slots_[index];
      if (!s.enabled) continue;
      const Condition& c = s.condition;
      Test t;
      switch (c.type) {
        case ConditionType::kPriceAbove:
        case ConditionType::kPriceBelow: {
          if (c.source) {
            const auto* l = view.prices();
            if (l == nullptr) break;
            for (const auto& entry : *l) {
              if (entry.newest.source == *c.source) {
                t = priceTest(c, entry.newest.price, entry.newest.source);
                break;
              }
            }
          } else {
            const auto& current = view.currentPrice();
            t = priceTest(c, current.price, current.source.value_or(""));
          }
          break;
        }
        case ConditionType::kPercentChange: {
          const auto* signal = view.signal(c.window);
          if (signal == nullptr) break;
          const double pc = signal->percent_change;
          t.holds = c.direction == Direction::kUp     ? pc >= c.threshold
                    : c.direction == Direction::kDown ? pc <= -c.threshold
                                                      : std::fabs(pc) >= c.threshold;
          if (t.holds) {
            t.observed.value = pc;
            t.observed.price = signal->last_price;
          }
          break;
        }
        case ConditionType::kBollingerBreak: {
          const auto* signal = view.signal(c.window);
          if (signal == nullptr || !(signal->bollinger_upper > signal->bollinger_lower)) break;
          const double p = signal->last_price;
          t.holds = p > signal->bollinger_upper || p < signal->bollinger_lower;
          if (t.holds) {
            t.observed.price = p;
            t.observed.upper = signal->bollinger_upper;
            t.observed.lower = signal->bollinger_lower;
          }
          break;
        }
        case ConditionType::kSpreadAbove: {
          const auto& spread = view.spreadNow();
          if (!spread) break;
          t.holds = spread->percent > c.threshold;
          if (t.holds) {
            t.observed.value = spread->percent;
            t.observed.min_price = spread->min;
            t.observed.max_price = spread->max;
            t.observed.source = spread->min_source;
            t.observed.other_source = spread->max_source;
          }
          break;
        }
        case ConditionType::kVolatilityRank: {
          const auto rank = rankOf(item, c.window);
          t.holds = rank && *rank <= c.top;
          if (t.holds) t.observed.value = *rank;
          break;
        }
      }

      const bool edge = t.holds && !s.state;
      const bool cooled = s.last_fired_at < 0 || inputs.now - s.last_fired_at >= s.cooldown_seconds;
      if (edge && cooled) {
        s.last_fired_at = inputs.now;
        s.state = true;
        result.changes.push_back(store::AlertStateChange{s.id, true, inputs.now});
        result.firings.push_back(
            Firing{s.id, item, s.user_id, c, std::move(t.observed), inputs.now});
      } else if (t.holds != s.state) {
        s.state = t.holds;
        result.changes.push_back(store::AlertStateChange{s.id, t.holds, std::nullopt});
      }
    }
  }
  return result;
}

Observation render(const Firing& firing) {
  const Condition& c = firing.condition;
  const Observed& o = firing.observed;
  const std::string window(metrics::kWindows[c.window].name);
  Observation out;
  common::JsonWriter json;
  json.beginObject();
  switch (c.type) {
    case ConditionType::kPriceAbove:
    case ConditionType::kPriceBelow:
      json.key("price").value(static_cast<std::int64_t>(o.value)).key("source").value(o.source);
      out.text = "price " + dollars(o.value) + " (" + o.source + ") is " +
                 (c.type == ConditionType::kPriceAbove ? "above " : "below ") +
                 dollars(static_cast<double>(c.value));
      break;
    case ConditionType::kPercentChange:
      json.key("percent_change")
          .value(o.value)
          .key("window")
          .value(window)
          .key("price")
          .value(o.price);
      out.text = "moved " + percent(o.value) + " in " + window + " (now " + dollars(o.price) + ")";
      break;
    case ConditionType::kBollingerBreak:
      json.key("price")
          .value(o.price)
          .key("upper")
          .value(o.upper)
          .key("lower")
          .value(o.lower)
          .key("window")
          .value(window);
      out.text = "price " + dollars(o.price) + " broke its " + window + " Bollinger band [" +
                 dollars(o.lower) + ", " + dollars(o.upper) + "]";
      break;
    case ConditionType::kSpreadAbove: {
      json.key("spread_percent")
          .value(o.value)
          .key("min_price")
          .value(o.min_price)
          .key("min_source")
          .value(o.source)
          .key("max_price")
          .value(o.max_price)
          .key("max_source")
          .value(o.other_source);
      char text[64];
      std::snprintf(text, sizeof text, "%.2f %%", o.value);
      out.text = std::string("spread ") + text + " between markets (" +
                 dollars(static_cast<double>(o.min_price)) + " at " + o.source + ", " +
                 dollars(static_cast<double>(o.max_price)) + " at " + o.other_source + ")";
      break;
    }
    case ConditionType::kVolatilityRank:
      json.key("rank").value(static_cast<std::int64_t>(o.value)).key("window").value(window);
      out.text = "is #" + std::to_string(static_cast<std::int64_t>(o.value)) +
                 " of the most volatile items (" + window + ")";
      break;
  }
  json.endObject();
  out.json = json.take();
  return out;
}

}  // namespace skinpulse::alerts
