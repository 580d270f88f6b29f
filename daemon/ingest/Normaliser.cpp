#include "ingest/Normaliser.hpp"

#include "catalog/CatalogImages.hpp"
#include "currency/Iso4217.hpp"
#include "currency/Money.hpp"
#include "ingest/PriceParser.hpp"
#include "quality/KindSeries.hpp"

#include <array>

namespace skinpulse {
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
      names_[index] = quality::sourceForKind(input_.source, input_.kind, kind);
    return names_[index];
  }

 private:
  const NormaliseInput& input_;
  std::array<std::string, 4> names_;
};

void normaliseOne(const NormaliseInput& input, const Fields& in, const CatalogSnapshot& catalog,
                  SourceNames& sources, NormalisedBatch& batch) {
  const std::string_view name = trimName(in.name);
  if (name.empty()) {
    ++batch.rejected["empty market_hash_name"];
    return;
  }
  const auto* item = catalog.findByName(name);
  if (item == nullptr) {
    ++batch.rejected["not in catalogue"];
    batch.unknown_names.emplace_back(name);
    return;
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
  batch.points.push_back(PricePoint{item->record.id, sources.of(in.kind), time, *cents, in.volume,
                                    in.kind, in.listings});
  if (item->record.image_url.empty() && usableImageUrl(in.image_url) &&
      (batch.images.empty() || batch.images.back().first != item->record.id)) {
    batch.images.emplace_back(item->record.id, std::string(in.image_url));
  }
}

}  // namespace

NormalisedBatch normalise(const NormaliseInput& input,
                          const std::vector<sdk::Observation>& observations,
                          const std::vector<sdk::MarketQuote>& quotes,
                          const CatalogSnapshot& catalog) {
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
                        q.observed_at, q.kind.value_or(input.kind), q.image_url},
                 catalog, sources, batch);
  }
  return batch;
}

void normaliseQuote(const NormaliseInput& input, const sdk::MarketQuote& q,
                    const CatalogSnapshot& catalog, NormalisedBatch& batch) {
  SourceNames sources(input);
  normaliseOne(input,
               Fields{q.market_hash_name, q.price, q.volume, q.listings, q.currency, q.observed_at,
                      q.kind.value_or(input.kind), q.image_url},
               catalog, sources, batch);
}

NormalisedBatch normalise(const std::string& source, std::int64_t poll_time,
                          const std::vector<sdk::Observation>& observations,
                          const CatalogSnapshot& catalog) {
  return normalise(NormaliseInput{source, poll_time, sdk::PriceKind::kAsk}, observations, {},
                   catalog);
}

}  // namespace skinpulse
