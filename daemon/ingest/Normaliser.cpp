#include "ingest/Normaliser.hpp"

#include "skinpulse/sdk/variants.hpp"

#include "catalog/CatalogImages.hpp"
#include "catalog/ItemName.hpp"
#include "currency/Iso4217.hpp"
#include "currency/Money.hpp"
#include "ingest/PriceParser.hpp"
#include "prices/KindSeries.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <limits>
#include <unordered_map>

namespace skinpulse::ingest {
namespace {

constexpr std::int64_t kFutureTolerance = 300;

bool isSpace(std::string_view s, std::size_t i, std::size_t& width) {
  const auto c = static_cast<unsigned char>(s[i]);
  if (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
    width = 1;
    return true;
  }
  if (c == 0xC2 && i + 1 < s.size() && static_cast<unsigned char>(s[i + 1]) == 0xA0) {
    width = 2;
    return true;
  }
  return false;
}

}  // namespace

std::string_view trimName(std::string_view name) {
  std::size_t begin = 0;
  std::size_t width = 0;
  while (begin < name.size() && isSpace(name, begin, width)) begin += width;
  std::size_t end = name.size();
  while (end > begin) {
    if (name[end - 1] == ' ' || name[end - 1] == '\t' || name[end - 1] == '\r' ||
        name[end - 1] == '\n') {
      --end;
    } else if (end - begin >= 2 && static_cast<unsigned char>(name[end - 2]) == 0xC2 &&
               static_cast<unsigned char>(name[end - 1]) == 0xA0) {
      end -= 2;
    } else {
      break;
    }
  }
  return name.substr(begin, end - begin);
}

namespace {

// The fields an Observation and a MarketQuote share, plus what only a quote has.
struct Fields {
  std::string_view name;
  const sdk::QuotedPrice& price;
  std::int64_t volume;
  std::optional<std::int64_t> listings;
  std::string_view currency;
  std::optional<std::int64_t> observed_at;
  sdk::PriceKind kind;
  std::string_view image_url;
  std::string_view variant = {};
  /// A poll (not a backfill line): a variant row also prices its base item.
  bool price_base_too = false;
};

bool isUsd(std::string_view currency) {
  currency = trimName(currency);
  return currency.empty() || currency == "USD" || currency == "usd";
}

// The quote's price in USD cents with the newest rate of its currency (docs/api.md §12):
// integer minor units (QuotedPrice::kCents) are in the currency's own exponent (yen for
// JPY, fils for KWD); major amounts and text are read to hundredths first, exactly as
// for USD. nullopt: no rate for the currency (or an unknown code).
enum class Converted { kOk, kNoRate, kUnreadable };
Converted toUsd(const NormaliseInput& input, std::string_view code, const sdk::QuotedPrice& price,
                std::int64_t& cents) {
  if (input.rates == nullptr) return Converted::kNoRate;
  std::string upper(trimName(code));
  for (char& c : upper) {
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
  }
  const auto rate = input.rates->find(upper);
  const auto exponent = currency::currencyExponent(upper);
  if (rate == input.rates->end() || !exponent) return Converted::kNoRate;
  const auto amount = toCents(price);
  if (!amount) return Converted::kUnreadable;
  const int scale = price.form == sdk::QuotedPrice::Form::kCents ? *exponent : 2;
  const auto usd = currency::toUsdCents(*amount, scale, rate->second);
  if (!usd || *usd <= 0) return Converted::kUnreadable;
  cents = *usd;
  return Converted::kOk;
}

// The source name of each kind, built once per batch rather than once per point.
class SourceNames {
 public:
  explicit SourceNames(const NormaliseInput& input) : input_(input) {}
  const std::string& of(sdk::PriceKind kind) {
    const auto index = static_cast<std::size_t>(kind);
    if (!input_.series_per_kind || index >= names_.size()) return input_.source;
    if (names_[index].empty())
      names_[index] = prices::sourceForKind(input_.source, input_.kind, kind);
    return names_[index];
  }

 private:
  const NormaliseInput& input_;
  std::array<std::string, 4> names_;
};

void normaliseOne(const NormaliseInput& input, const Fields& in,
                  const catalog::CatalogSnapshot& catalog, SourceNames& sources,
                  NormalisedBatch& batch) {
  const std::string_view name = trimName(in.name);
  if (name.empty()) {
    ++batch.rejected["empty market_hash_name"];
    return;
  }
  const auto* item = catalog.findByName(name);
  if (item == nullptr) {
    // docs/api.md §18: junk is never a candidate for [catalog] auto_add.
    if (const auto junk = catalog::junkNameReason(name)) {
      ++batch.rejected[std::string(kRejectedJunkName)];
      return;
    }
    ++batch.rejected["not in catalogue"];
    batch.unknown_names.emplace_back(name);
    return;
  }
  // A variant the catalogue does not have for this name is priced as the name itself.
  const catalog::CatalogItemView* variant_item = nullptr;
  if (!in.variant.empty()) {
    if (const auto canonical = sdk::variantNamed(trimName(in.variant))) {
      variant_item = catalog.findVariant(name, *canonical);
    }
  }
  std::optional<std::int64_t> cents;
  if (isUsd(in.currency)) {
    cents = toCents(in.price);
  } else {
    std::int64_t converted = 0;
    switch (toUsd(input, in.currency, in.price, converted)) {
      case Converted::kNoRate:
        ++batch.rejected[std::string(kRejectedNoRate)];
        return;
      case Converted::kOk:
        cents = converted;
        break;
      case Converted::kUnreadable:
        break;
    }
  }
  if (!cents) {
    ++batch.rejected["price unreadable or not positive"];
    return;
  }
  if (in.volume < 0) {
    ++batch.rejected["negative volume"];
    return;
  }
  if (in.listings && *in.listings < 0) {
    ++batch.rejected["negative listings"];
    return;
  }
  const std::int64_t time = in.observed_at.value_or(input.poll_time);
  if (time > input.poll_time + kFutureTolerance || time <= 0) {
    ++batch.rejected["time in the future or invalid"];
    return;
  }
  const std::string& source = sources.of(in.kind);
  if (variant_item != nullptr) {
    batch.points.push_back(store::PricePoint{variant_item->record.id, source, time, *cents,
                                             in.volume, in.kind, in.listings});
    if (!in.price_base_too) return;
    if (batch.variant_bases.empty() || batch.variant_bases.back() != item->record.id) {
      batch.variant_bases.push_back(item->record.id);
    }
  }
  batch.points.push_back(
      store::PricePoint{item->record.id, source, time, *cents, in.volume, in.kind, in.listings});
  if (item->record.image_url.empty() && catalog::usableImageUrl(in.image_url) &&
      (batch.images.empty() || batch.images.back().first != item->record.id)) {
    batch.images.emplace_back(item->record.id, std::string(in.image_url));
  }
}

// The identity of a stored observation (docs/api.md §4).
struct ObservationKey {
  std::int64_t item_id;
  std::string_view source;
  std::int64_t time;
  bool operator==(const ObservationKey&) const = default;
};

struct ObservationKeyHash {
  std::size_t operator()(const ObservationKey& key) const {
    std::size_t h = std::hash<std::int64_t>{}(key.item_id);
    h ^= std::hash<std::int64_t>{}(key.time) + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
    h ^= std::hash<std::string_view>{}(key.source) + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
    return h;
  }
};

}  // namespace

void mergeSameObservations(NormalisedBatch& batch) {
  auto& points = batch.points;
  if (points.size() < 2) return;
  // Most batches name each item once: a count per item id (ids are dense catalogue ids)
  // finds the few that repeat, and only those go through the hash map below.
  // Ids beyond kMaxDenseId (never assigned by the seeder) make every point a candidate.
  constexpr std::int64_t kMaxDenseId = std::int64_t{1} << 24;
  std::int64_t max_id = 0;
  bool sparse = false;
  for (const auto& point : points) {
    max_id = std::max(max_id, point.item_id);
    sparse = sparse || point.item_id < 0 || point.item_id > kMaxDenseId;
  }
  std::vector<std::uint8_t> seen(sparse ? 0 : static_cast<std::size_t>(max_id) + 1);
  bool repeats = sparse;
  for (const auto& point : points) {
    if (sparse) break;
    auto& count = seen[static_cast<std::size_t>(point.item_id)];
    repeats = repeats || count != 0;
    count = count == 0 ? 1 : 2;
  }
  if (!repeats) return;
  const auto candidate = [&](const store::PricePoint& point) {
    return sparse || seen[static_cast<std::size_t>(point.item_id)] > 1;
  };
  auto& pooled = batch.variant_bases;
  std::sort(pooled.begin(), pooled.end());
  pooled.erase(std::unique(pooled.begin(), pooled.end()), pooled.end());
  // Pass 1 finds each point's first twin (the keys view `points`, untouched until pass 2);
  // pass 2 folds the twins into it.
  std::unordered_map<ObservationKey, std::size_t, ObservationKeyHash> first;
  std::vector<std::size_t> leader(points.size());
  for (std::size_t i = 0; i < points.size(); ++i) {
    leader[i] = i;
    if (!candidate(points[i])) continue;
    const bool one_per_source =
        !pooled.empty() && std::binary_search(pooled.begin(), pooled.end(), points[i].item_id);
    const std::int64_t time =
        one_per_source ? std::numeric_limits<std::int64_t>::min() : points[i].time;
    leader[i] = first.try_emplace(ObservationKey{points[i].item_id, points[i].source, time}, i)
                    .first->second;
  }
  first.clear();
  for (std::size_t i = 0; i < points.size(); ++i) {
    if (leader[i] == i) continue;
    store::PricePoint& into = points[leader[i]];
    into.price = std::min(into.price, points[i].price);
    into.time = std::max(into.time, points[i].time);
    into.volume += points[i].volume;
    if (points[i].listings) into.listings = into.listings.value_or(0) + *points[i].listings;
    ++batch.merged;
  }
  std::size_t out = 0;
  for (std::size_t i = 0; i < points.size(); ++i) {
    if (leader[i] != i) continue;
    if (out != i) points[out] = std::move(points[i]);
    ++out;
  }
  points.resize(out);
}

NormalisedBatch normalise(const NormaliseInput& input,
                          const std::vector<sdk::Observation>& observations,
                          const std::vector<sdk::VariantQuote>& quotes,
                          const catalog::CatalogSnapshot& catalog) {
  NormalisedBatch batch;
  SourceNames sources(input);
  batch.points.reserve(observations.size() + quotes.size());
  for (const auto& o : observations) {
    normaliseOne(
        input,
        Fields{
            o.market_hash_name, o.price, o.volume, std::nullopt, {}, o.observed_at, input.kind, {}},
        catalog, sources, batch);
  }
  for (const auto& q : quotes) {
    normaliseOne(input,
                 Fields{q.market_hash_name, q.price, q.volume, q.listings, q.currency,
                        q.observed_at, q.kind.value_or(input.kind), q.image_url, q.variant, true},
                 catalog, sources, batch);
  }
  mergeSameObservations(batch);
  return batch;
}

void normaliseQuote(const NormaliseInput& input, const sdk::VariantQuote& q,
                    const catalog::CatalogSnapshot& catalog, NormalisedBatch& batch) {
  SourceNames sources(input);
  normaliseOne(input,
               Fields{q.market_hash_name, q.price, q.volume, q.listings, q.currency, q.observed_at,
                      q.kind.value_or(input.kind), q.image_url, q.variant, false},
               catalog, sources, batch);
}

NormalisedBatch normalise(const std::string& source, std::int64_t poll_time,
                          const std::vector<sdk::Observation>& observations,
                          const catalog::CatalogSnapshot& catalog) {
  return normalise(NormaliseInput{source, poll_time, sdk::PriceKind::kAsk}, observations, {},
                   catalog);
}

}  // namespace skinpulse::ingest
