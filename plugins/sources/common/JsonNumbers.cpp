#include "JsonNumbers.hpp"

#include <Poco/Exception.h>
#include <Poco/JSON/Parser.h>

#include <cmath>

namespace skinpulse::plugins::support {

Poco::JSON::Object::Ptr parseJsonObject(const std::string& body, std::string& error,
                                        std::size_t max_depth) {
  try {
    Poco::JSON::Parser parser;
    parser.setDepth(max_depth);
    const Poco::Dynamic::Var parsed = parser.parse(body);
    if (parsed.type() != typeid(Poco::JSON::Object::Ptr)) {
      error = "expected a JSON object";
      return nullptr;
    }
    return parsed.extract<Poco::JSON::Object::Ptr>();
  } catch (const Poco::Exception& e) {
    error = "invalid JSON: " + e.displayText();
    return nullptr;
  }
}

std::optional<std::int64_t> jsonInteger(const Poco::Dynamic::Var& value) {
  if (value.isEmpty() || value.isBoolean() || !value.isInteger()) return std::nullopt;
  try {
    return value.convert<Poco::Int64>();
  } catch (const Poco::Exception&) {
    return std::nullopt;  // an unsigned value beyond int64
  }
}

std::optional<double> jsonNumber(const Poco::Dynamic::Var& value) {
  if (value.isEmpty() || value.isBoolean() || !value.isNumeric()) return std::nullopt;
  try {
    const double number = value.convert<double>();
    if (!std::isfinite(number)) return std::nullopt;
    return number;
  } catch (const Poco::Exception&) {
    return std::nullopt;
  }
}

std::optional<std::int64_t> integerMember(const Poco::JSON::Object& object,
                                          const std::string& key) {
  if (!object.has(key) || object.isNull(key)) return std::nullopt;
  return jsonInteger(object.get(key));
}

std::optional<double> numberMember(const Poco::JSON::Object& object, const std::string& key) {
  if (!object.has(key) || object.isNull(key)) return std::nullopt;
  return jsonNumber(object.get(key));
}

}  // namespace skinpulse::plugins::support
