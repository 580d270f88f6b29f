#pragma once

// JsonBody: the request bodies of the endpoints that take one (docs/api.md §13 and §15)
// are JSON objects, refused the same way everywhere: not a JSON object → MalformedBody
// (400 invalid_body), a field that breaks its endpoint's rules → InvalidField (422, the
// endpoint's own code, `detail` naming the field).

#include <Poco/JSON/Object.h>

#include <stdexcept>
#include <string>
#include <string_view>

namespace skinpulse::common {

/// A body that is not a JSON object: 400 invalid_body.
class MalformedBody : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// A body field that breaks the rules: "field '<name>' <problem>".
class InvalidField : public std::runtime_error {
 public:
  InvalidField(std::string field, const std::string& problem)
      : std::runtime_error("field '" + field + "' " + problem), field_(std::move(field)) {}
  const std::string& field() const { return field_; }

 private:
  std::string field_;
};

/// Parses `body` as one JSON object; throws MalformedBody otherwise (invalid JSON, an
/// array, a scalar, null).
Poco::JSON::Object::Ptr parseObjectBody(std::string_view body);

}  // namespace skinpulse::common
