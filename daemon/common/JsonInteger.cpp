#include "common/JsonInteger.hpp"

#include <Poco/Exception.h>

namespace skinpulse::common {

std::optional<std::int64_t> jsonInteger(const Poco::Dynamic::Var& value) {
  if (value.isEmpty() || value.isBoolean() || !value.isInteger()) return std::nullopt;
  try {
    return value.convert<Poco::Int64>();
  } catch (const Poco::Exception&) {
    return std::nullopt;  // an unsigned value beyond int64
  }
}

}  // namespace skinpulse::common
