#include "BoundedJson.hpp"

#include <Poco/Dynamic/Var.h>
#include <Poco/Exception.h>
#include <Poco/JSON/Parser.h>

#include <exception>

namespace skinpulse::plugins::identity {
namespace {

Poco::Dynamic::Var parse(std::string_view text) {
  try {
    Poco::JSON::Parser parser;
    parser.setDepth(kMaxJsonDepth);
    return parser.parse(std::string(text));
  } catch (const Poco::Exception&) {
  } catch (const std::exception&) {
  }
  return {};
}

}  // namespace

Poco::JSON::Object::Ptr parseObject(std::string_view text) {
  const Poco::Dynamic::Var value = parse(text);
  if (value.type() != typeid(Poco::JSON::Object::Ptr)) return nullptr;
  return value.extract<Poco::JSON::Object::Ptr>();
}

Poco::JSON::Array::Ptr parseArray(std::string_view text) {
  const Poco::Dynamic::Var value = parse(text);
  if (value.type() != typeid(Poco::JSON::Array::Ptr)) return nullptr;
  return value.extract<Poco::JSON::Array::Ptr>();
}

std::optional<std::string> stringMember(const Poco::JSON::Object& object, const std::string& key) {
  if (!object.has(key)) return std::nullopt;
  const Poco::Dynamic::Var value = object.get(key);
  if (!value.isString()) return std::nullopt;
  return value.extract<std::string>();
}

std::optional<bool> boolMember(const Poco::JSON::Object& object, const std::string& key) {
  if (!object.has(key)) return std::nullopt;
  const Poco::Dynamic::Var value = object.get(key);
  if (value.type() != typeid(bool)) return std::nullopt;
  return value.extract<bool>();
}

std::optional<std::int64_t> integerMember(const Poco::JSON::Object& object,
                                          const std::string& key) {
  if (!object.has(key)) return std::nullopt;
  const Poco::Dynamic::Var value = object.get(key);
  if (!value.isInteger() || value.type() == typeid(bool)) return std::nullopt;
  try {
    return value.convert<std::int64_t>();
  } catch (const Poco::Exception&) {
    return std::nullopt;  // an unsigned value beyond int64
  }
}

}  // namespace skinpulse::plugins::identity
