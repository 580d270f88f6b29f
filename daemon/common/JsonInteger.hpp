#pragma once

// A JSON integer out of a parsed (Poco) document, without exceptions. Poco keeps an
// integer above INT64_MAX as UInt64 and Var::convert<Int64>() then throws RangeException;
// every reader of untrusted JSON in the daemon (backfill lines, WebSocket messages,
// inventory pages) goes through this instead of catching it case by case. Plugins have
// their own copy (plugins/sources/common/JsonNumbers.hpp): they link the SDK only.

#include <Poco/Dynamic/Var.h>

#include <cstdint>
#include <optional>

namespace skinpulse::common {

/// The value when it is a JSON integer (not a float, not a boolean, not a string) that
/// fits int64; nullopt otherwise.
std::optional<std::int64_t> jsonInteger(const Poco::Dynamic::Var& value);

}  // namespace skinpulse::common
