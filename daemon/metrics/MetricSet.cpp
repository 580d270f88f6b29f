#include "metrics/MetricSet.hpp"

#include "common/Log.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace skinpulse::metrics {
namespace {

bool isWord(std::string_view text) {
  if (text.empty()) return false;
  for (const char c : text) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
    if (!ok) return false;
  }
  return true;
}

// Three points, one hour apart, rising: every ordinary metric has a defined value here.
sdk::WindowStats probeWindow() {
  sdk::WindowStats s;
  s.window_seconds = 86400;
  s.now = 1'800'000'000;
  s.n = 3;
  s.mean_price = 1000;
  s.m2_price = 20000;
  s.mean_time = static_cast<double>(s.now - 3600);
  s.m2_time = 2.0 * 3600 * 3600;
  s.co_moment = 2.0 * 3600 * 100;
  s.first_time = s.now - 7200;
  s.last_time = s.now;
  s.first_price = 900;
  s.last_price = 1100;
  s.min_price = 900;
  s.max_price = 1100;
  s.has_price_before = true;
  s.price_before = 950;
  return s;
}

}  // namespace

bool isReservedFieldName(std::string_view name) {
  return name == "item_id" || name == "window" || name == "source" || name == "samples" ||
         name == "computed_at";
}

MetricSet::MetricSet(std::vector<Entry> metrics)
    : metrics_(std::move(metrics)),
      slots_(metrics_.size()),
      reported_(new std::atomic<bool>[metrics_.size()]) {
  struct Found {
    Field field;
    std::size_t metric;
    std::size_t position;
  };
  std::vector<Found> found;
  const auto probe = probeWindow();
  for (std::size_t m = 0; m < metrics_.size(); ++m) {
    reported_[m] = false;
    const std::string who = "metric '" + metrics_[m].instance + "'";
    sdk::MetricValues values;
    try {
      values = metrics_[m].metric->compute(probe);
    } catch (const std::exception& e) {
      throw std::invalid_argument(who + " failed on a probe window: " + e.what());
    }
    if (values.empty()) throw std::invalid_argument(who + " returns no values");
    for (std::size_t i = 0; i < values.size(); ++i) {
      const std::string& name = values[i].first;
      const auto dot = name.find('.');
      Field field{name, "", name};
      if (dot != std::string::npos) {
        field.group = name.substr(0, dot);
        field.key = name.substr(dot + 1);
      }
      if (!isWord(field.key) || (dot != std::string::npos && !isWord(field.group))) {
        throw std::invalid_argument(who + " returns the malformed name '" + name +
                                    "' (expected [a-z0-9_]+ or group.field)");
      }
      const std::string& top = field.group.empty() ? field.key : field.group;
      if (isReservedFieldName(top)) {
        throw std::invalid_argument(who + " returns '" + name + "', a field of the host");
      }
      for (const auto& other : found) {
        const std::string& other_top =
            other.field.group.empty() ? other.field.key : other.field.group;
        const bool clash = other.field.name == name ||
                           (other_top == top && (other.field.group.empty() || field.group.empty()));
        if (clash) {
          throw std::invalid_argument(who + " returns '" + name + "', which clashes with '" +
                                      other.field.name + "' of metric '" +
                                      metrics_[other.metric].instance + "'");
        }
      }
      found.push_back(Found{field, m, i});
    }
  }
  // Rendering order: tops in first-appearance order, a group's fields together.
  std::vector<std::string> tops;
  for (const auto& f : found) {
    const std::string& top = f.field.group.empty() ? f.field.key : f.field.group;
    if (std::find(tops.begin(), tops.end(), top) == tops.end()) tops.push_back(top);
  }
  for (const auto& top : tops) {
    for (const auto& f : found) {
      const std::string& own = f.field.group.empty() ? f.field.key : f.field.group;
      if (own != top) continue;
      slots_[f.metric].push_back(Slot{fields_.size(), f.position});
      fields_.push_back(f.field);
    }
  }
}

MetricSet::MetricSet(MetricSet&&) noexcept = default;
MetricSet::~MetricSet() = default;

std::optional<std::size_t> MetricSet::find(std::string_view name) const {
  for (std::size_t i = 0; i < fields_.size(); ++i) {
    if (fields_[i].name == name) return i;
  }
  return std::nullopt;
}

void MetricSet::fail(std::size_t metric, const std::string& why) const {
  if (!reported_[metric].exchange(true)) {
    log::main().warn("metric '{}' {}; its fields are null until it recovers (reported once)",
                     metrics_[metric].instance, why);
  }
}

void MetricSet::evaluate(const sdk::WindowStats& stats, std::vector<double>& values) const {
  constexpr double kMissing = std::numeric_limits<double>::quiet_NaN();
  values.assign(fields_.size(), kMissing);
  for (std::size_t m = 0; m < metrics_.size(); ++m) {
    sdk::MetricValues out;
    try {
      out = metrics_[m].metric->compute(stats);
    } catch (const std::exception& e) {
      fail(m, std::string("threw: ") + e.what());
      continue;
    } catch (...) {
      fail(m, "threw a non-standard exception");
      continue;
    }
    for (const auto& slot : slots_[m]) {
      const std::string& name = fields_[slot.field].name;
      if (slot.position < out.size() && out[slot.position].first == name) {
        values[slot.field] = out[slot.position].second;
        continue;
      }
      bool seen = false;
      for (const auto& [key, value] : out) {
        if (key == name) {
          values[slot.field] = value;
          seen = true;
          break;
        }
      }
      if (!seen) fail(m, "left out '" + name + "'");
    }
  }
}

}  // namespace skinpulse::metrics
