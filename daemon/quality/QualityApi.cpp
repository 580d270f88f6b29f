#include "quality/QualityApi.hpp"

#include "common/Json.hpp"
#include "common/Time.hpp"
#include "currency/Conversion.hpp"
#include "http/Params.hpp"
#include "prices/KindSeries.hpp"

#include <algorithm>
#include <cmath>

namespace skinpulse::quality {
using http::integerParam;
using http::Request;
using http::Response;
using http::Router;

namespace {

struct SourceTally {
  std::int64_t items_priced = 0;  ///< items whose latest point of the source is fresh
  std::int64_t outliers = 0;      ///< items whose latest point of the source is flagged
  std::optional<std::int64_t> newest;
};

// Percentages to two decimals: a ranking is read, not recomputed.
double roundPercent(double value) { return std::round(value * 100.0) / 100.0; }

}  // namespace

QualityApi::QualityApi(const catalog::Catalog& catalog, const prices::LatestPrices& latest,
                       const prices::PricePolicy& policy, PollStatesFn polls, Clock clock)
    : catalog_(catalog),
      latest_(latest),
      policy_(policy),
      polls_(std::move(polls)),
      clock_(clock ? std::move(clock) : Clock([] { return time::nowSeconds(); })) {
  for (const auto& profile : policy_.sources()) fees_[profile.name] = profile.fee_percent;
}

void QualityApi::registerRoutes(Router& router) {
  router.add("GET", "/api/v1/sources", [this](Request& q, Response& r) { sources(q, r); });
  router.add("GET", "/api/v1/rankings/spread", [this](Request& q, Response& r) { spreads(q, r); });
}

void QualityApi::sources(Request&, Response& response) const {
  const std::int64_t now = clock_();
  const auto snapshot = latest_.snapshot();
  std::map<std::string, SourceTally, std::less<>> tally;
  for (const auto& [item, entries] : snapshot->by_item) {
    for (const auto& entry : *entries) {
      auto& count = tally[entry.newest.source];
      if (policy_.freshness().fresh(entry.newest, now)) ++count.items_priced;
      if (entry.newest.outlier) ++count.outliers;
      if (!count.newest || entry.newest.time > *count.newest) count.newest = entry.newest.time;
    }
  }
  const PollStates polled = polls_ ? polls_() : PollStates{};
  common::JsonWriter json;
  json.beginArray();
  // `polled_as`: whose polls feed this series (an instance's, for its NAME-<kind> series).
  auto write = [&](const std::string& name, const prices::SourceProfile* profile,
                   const std::string& polled_as) {
    const SourceTally counts = tally.count(name) ? tally.at(name) : SourceTally{};
    const auto found = polled.find(polled_as);
    const PollState poll = found != polled.end() ? found->second : PollState{};
    // A source is fresh while its last success (polled) or its newest point (backfilled)
    // is younger than its freshness limit.
    std::optional<std::int64_t> last_seen = counts.newest;
    if (poll.last_success && (!last_seen || *poll.last_success > *last_seen)) {
      last_seen = poll.last_success;
    }
    json.beginObject().key("name").value(name).key("plugin");
    if (profile != nullptr) {
      json.value(profile->plugin).key("kind").value(sdk::priceKindName(profile->kind));
    } else {
      json.null().key("kind").null();
    }
    json.key("enabled").value(profile != nullptr && profile->enabled).key("interval_seconds");
    if (profile != nullptr) {
      json.value(profile->interval_seconds);
    } else {
      json.null();
    }
    json.key("last_success");
    if (poll.last_success) {
      json.value(time::formatIso8601(*poll.last_success));
    } else {
      json.null();
    }
    json.key("fresh")
        .value(last_seen.has_value() && policy_.freshness().fresh(name, *last_seen, now))
        .key("items_priced")
        .value(counts.items_priced)
        .key("outliers")
        .value(counts.outliers)
        .key("fee_percent")
        .value(profile != nullptr ? profile->fee_percent : 0.0)
        // The last poll failed (§19): seen at once, while `fresh` may still hold on
        // points stored before the failures began.
        .key("failing")
        .value(poll.consecutive_failures > 0)
        .key("consecutive_failures")
        .value(poll.consecutive_failures)
        .endObject();
  };
  const auto& profiles = policy_.sources();
  auto configured = [&](std::string_view name) -> const prices::SourceProfile* {
    const auto found = std::find_if(profiles.begin(), profiles.end(),
                                    [&](const prices::SourceProfile& p) { return p.name == name; });
    return found == profiles.end() ? nullptr : &*found;
  };
  for (const auto& profile : profiles) write(profile.name, &profile, profile.name);
  // Then the names only the store knows: an instance's series of another kind
  // (NAME-<kind>, described by its instance with that kind), backfilled names, or
  // instances since removed.
  for (const auto& name : snapshot->source_names) {
    if (configured(name) != nullptr) continue;
    const auto series = prices::kindSeriesOf(name);
    const prices::SourceProfile* instance = series ? configured(series->instance) : nullptr;
    if (instance == nullptr) {
      write(name, nullptr, name);
      continue;
    }
    prices::SourceProfile derived = *instance;
    derived.name = name;
    derived.kind = series->kind;
    write(name, &derived, instance->name);
  }
  json.endArray();
  response.json(json.take());
}

void QualityApi::spreads(Request& request, Response& response) const {
  const auto limit = static_cast<std::size_t>(integerParam(request, "limit", 20, 1, 100));
  const auto min_sources = static_cast<std::size_t>(integerParam(request, "min_sources", 2, 2, 64));
  const auto money = currency::currencyParam(request, *rates_);
  const std::int64_t now = clock_();
  const auto snapshot = latest_.snapshot();
  std::vector<std::pair<std::int64_t, SpreadOpportunity>> gaps;
  for (const auto& [item, entries] : snapshot->by_item) {
    if (entries->size() < min_sources) continue;
    if (auto gap = bestSpread(*entries, policy_, fees_, min_sources, now)) {
      gaps.emplace_back(item, std::move(*gap));
    }
  }
  auto better = [](const auto& a, const auto& b) {
    if (a.second.spread_percent != b.second.spread_percent) {
      return a.second.spread_percent > b.second.spread_percent;
    }
    return a.first < b.first;
  };
  const std::size_t kept = std::min(limit, gaps.size());
  std::partial_sort(gaps.begin(), gaps.begin() + static_cast<std::ptrdiff_t>(kept), gaps.end(),
                    better);
  const auto catalog = catalog_.snapshot();
  common::JsonWriter json;
  json.beginArray();
  for (std::size_t i = 0; i < kept; ++i) {
    const auto& [item, gap] = gaps[i];
    const auto* view = catalog->findById(item);
    json.beginObject()
        .key("item_id")
        .value(item)
        .key("market_hash_name")
        .value(view != nullptr ? std::string_view(view->record.market_hash_name) : "")
        .key("spread_percent")
        .value(roundPercent(gap.spread_percent))
        .key("buy_source")
        .value(gap.buy_source)
        .key("buy_price")
        .value(money.amount(gap.buy_price))
        .key("sell_source")
        .value(gap.sell_source)
        .key("sell_price")
        .value(money.amount(gap.sell_price));
    if (money.requested()) json.key("currency").value(money.code());
    json.endObject();
  }
  json.endArray();
  response.json(json.take());
}

}  // namespace skinpulse::quality
