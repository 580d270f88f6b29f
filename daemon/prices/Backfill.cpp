#include "prices/Backfill.hpp"

#include "common/Time.hpp"

#include <Poco/JSON/Object.h>
#include <Poco/JSON/Parser.h>

#include <variant>

namespace skinpulse {
namespace {

// Reads an integral JSON number; rejects fractions, strings and overflow.
std::optional<std::int64_t> integerField(const Poco::JSON::Object& object, const char* name) {
  if (!object.has(name) || object.isNull(name)) return std::nullopt;
  const Poco::Dynamic::Var value = object.get(name);
  if (!value.isInteger()) return std::nullopt;
  try {
    return value.convert<Poco::Int64>();
  } catch (const Poco::Exception&) {
    return std::nullopt;
  }
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

// Turns one line into a point, or answers why it cannot be stored.
std::variant<PricePoint, std::string> parseLine(Poco::JSON::Parser& parser, const std::string& line,
                                                const CatalogSnapshot& catalog) {
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
    const auto* item = catalog.findByName(trim(*name));
    if (item == nullptr) return std::string("unknown market_hash_name");
    const std::string source = trim(stringField(*object, "source").value_or(""));
    if (source.empty() || source.size() > 64) return std::string("missing or overlong source");
    const auto time = time::parseIso8601(stringField(*object, "time").value_or(""));
    if (!time) return std::string("bad time");
    const auto price = integerField(*object, "price");
    if (!price || *price <= 0) return std::string("price not a positive integer");
    const auto volume = object->has("volume") ? integerField(*object, "volume") : std::int64_t{0};
    if (!volume || *volume < 0) return std::string("volume not a non-negative integer");
    return PricePoint{item->record.id, source, *time, *price, *volume};
  } catch (const Poco::Exception&) {
    return std::string("field of the wrong type");
  }
}

}  // namespace

BackfillResult backfill(std::istream& in, const CatalogSnapshot& catalog, PriceStore& prices) {
  BackfillResult result;
  Poco::JSON::Parser parser;
  std::string line;
  while (std::getline(in, line)) {
    if (trim(line).empty()) continue;
    ++result.read;
    auto parsed = parseLine(parser, line, catalog);
    if (auto* reason = std::get_if<std::string>(&parsed)) {
      ++result.rejected[*reason];
    } else {
      result.points.push_back(std::get<PricePoint>(std::move(parsed)));
    }
  }
  result.stored = prices.insert(result.points);
  result.duplicates = result.points.size() - result.stored;
  return result;
}

}  // namespace skinpulse
