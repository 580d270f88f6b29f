#pragma once

// Nullable integer columns: Poco::Data's Nullable in and out of std::optional.

#include <Poco/Nullable.h>
#include <Poco/Types.h>

#include <cstdint>
#include <optional>

namespace skinpulse::store {

using NullableInt = Poco::Nullable<Poco::Int64>;

inline std::optional<std::int64_t> optionalOf(const NullableInt& value) {
  if (value.isNull()) return std::nullopt;
  return value.value();
}

inline NullableInt nullableOf(const std::optional<std::int64_t>& value) {
  return value ? NullableInt(*value) : NullableInt();
}

}  // namespace skinpulse::store
