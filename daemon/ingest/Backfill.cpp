#include "ingest/Backfill.hpp"

#include "common/JsonInteger.hpp"
#include "common/Time.hpp"
#include "ingest/Normaliser.hpp"
#include "quality/Outliers.hpp"

#include <Poco/JSON/Object.h>
#include <Poco/JSON/Parser.h>

#include <variant>

namespace skinpulse {
namespace {

// Reads an integral JSON number; rejects fractions, strings, booleans and overflow.
std::optional<std::int64_t> integerField(const Poco::JSON::Object& object, const char* name) {
  if (!object.has(name) || object.isNull(name)) return std::nullopt;
  return common::jsonInteger(object.get(name));
}

// A JSON string member; empty optional for absent, null or non-string values.
std::optional<std::string> stringField(const Poco::JSON::Object& object, const char* name) {
  if (!object.has(name) || object.isNull(name)) return std::nullopt;
  const Poco::Dynamic::Var value = object.get(name);
  if (!value.isString()) return std::nullopt;
  return value.extract<std::string>();
}

std::string trim(const std::string& s) {
  const auto begin = s.find_first_not_of(" \t\r\n");
  if (begin == std::string::npos) return {};
  return s.substr(begin, s.find_last_not_of(" \t\r\n") - begin + 1);
}

// One line as the observation a source would have reported, or why it cannot be one.
// Value checks (catalogue, positive price, volume, time) are the normaliser's, so a
// backfilled point is accepted exactly when a polled one would be.
std::variant<std::pair<std::string, sdk::MarketQuote>, std::string> parseLine(
    Poco::JSON::Parser& parser, const std::string& line) {
  Poco::JSON::Object::Ptr object;
  try {
    parser.reset();
    object = parser.parse(line).extract<Poco::JSON::Object::Ptr>();
  } catch (const Poco::Exception&) {
    return std::string("malformed JSON");
  }
  try {
    const auto name = stringField(*object, "market_hash_name");
    if (!name) return std::string("field of the wrong type");
    const std::string source = trim(stringField(*object, "source").value_or(""));
    if (source.empty() || source.size() > 64) return std::string("missing or overlong source");
    const auto time = time::parseIso8601(stringField(*object, "time").value_or(""));
    if (!time) return std::string("bad time");
    const auto price = integerField(*object, "price");
    if (!price) return std::string("price not an integer number of cents");
    const auto volume = object->has("volume") ? integerField(*object, "volume") : std::int64_t{0};
    if (!volume) return std::string("volume not an integer");
    sdk::MarketQuote quote;
    quote.market_hash_name = *name;
    quote.price.form = sdk::QuotedPrice::Form::kCents;
    quote.price.cents = *price;
    quote.volume = *volume;
    quote.observed_at = *time;
    // Since SDK ABI 1.2 (docs/adr/0011-sdk-abi-1-2.md): optional, ask and unknown by default.
    if (object->has("kind") && !object->isNull("kind")) {
      quote.kind = sdk::parsePriceKind(stringField(*object, "kind").value_or(""));
      if (!quote.kind) return std::string("kind not ask, bid, sale or reference");
    }
    if (object->has("listings") && !object->isNull("listings")) {
      quote.listings = integerField(*object, "listings");
      if (!quote.listings) return std::string("listings not an integer");
    }
    return std::make_pair(source, std::move(quote));
  } catch (const Poco::Exception&) {
    return std::string("field of the wrong type");
  }
}

}  // namespace

BackfillResult backfill(std::istream& in, const CatalogSnapshot& catalog, PriceStore& prices,
                        std::int64_t now, const BackfillOutliers* outliers) {
  BackfillResult result;
  Poco::JSON::Parser parser;
  std::map<std::string, std::vector<sdk::MarketQuote>> bySource;
  std::string line;
  while (std::getline(in, line)) {
    if (trim(line).empty()) continue;
    ++result.read;
    auto parsed = parseLine(parser, line);
    if (auto* reason = std::get_if<std::string>(&parsed)) {
      ++result.rejected[*reason];
      continue;
    }
    auto& [source, quote] = std::get<0>(parsed);
    bySource[source].push_back(std::move(quote));
  }
  for (const auto& [source, quotes] : bySource) {
    auto batch =
        normalise(NormaliseInput{source, now, sdk::PriceKind::kAsk, false}, {}, quotes, catalog);
    for (const auto& [reason, count] : batch.rejected) result.rejected[reason] += count;
    result.points.insert(result.points.end(), batch.points.begin(), batch.points.end());
  }
  if (outliers != nullptr && !result.points.empty()) {
    // In time order (then source), as the cycles would have seen them.
    std::stable_sort(result.points.begin(), result.points.end(),
                     [](const PricePoint& a, const PricePoint& b) {
                       return a.time != b.time ? a.time < b.time : a.source < b.source;
                     });
    LatestPrices stored;
    stored.reset(prices.latestPerItemSource());
    // Before the insert, whose revision makes a running daemon reload both.
    prices.clearOutliers(quality::judgeBatch(outliers->freshness, outliers->factor,
                                             *stored.snapshot(), result.points));
  }
  result.stored = prices.insertBackfill(result.points);  // one transaction: all or nothing
  result.duplicates = result.points.size() - result.stored;
  return result;
}

}  // namespace skinpulse
