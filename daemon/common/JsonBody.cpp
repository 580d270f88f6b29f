#include "common/JsonBody.hpp"

#include <Poco/JSON/Parser.h>

namespace skinpulse::common {

Poco::JSON::Object::Ptr parseObjectBody(std::string_view body) {
  Poco::Dynamic::Var root;
  try {
    Poco::JSON::Parser parser;
    root = parser.parse(std::string(body));
  } catch (const Poco::Exception&) {
    throw MalformedBody("the body is not valid JSON");
  }
  if (root.type() != typeid(Poco::JSON::Object::Ptr) ||
      root.extract<Poco::JSON::Object::Ptr>().isNull()) {
    throw MalformedBody("the body must be a JSON object");
  }
  return root.extract<Poco::JSON::Object::Ptr>();
}

}  // namespace skinpulse::common
