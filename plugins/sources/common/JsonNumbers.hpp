#pragma once

// Typed numbers out of a parsed upstream JSON body, without exceptions. Poco's parser
// keeps an integer beyond int64 as UInt64, and Var::convert<Int64>() then throws
// RangeException: one hostile `"updated_at": 17312832591661324437` would end the whole
// fetch instead of one row (the fuzzer's second find in fuzz_source_skinport). Every
// plugin reads numbers through these, so a value out of range is just "not a number".
// parseJsonObject is the one way the Poco-based plugins parse a body that must be an object.

#include <Poco/Dynamic/Var.h>
#include <Poco/JSON/Object.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

namespace skinpulse::plugins::support {

/// The deepest nesting the Poco-based plugins accept: the real shapes need a few levels,
/// and a hostile body of a million brackets must fail fast instead of exhausting the stack.
inline constexpr std::size_t kMaxJsonDepth = 16;

/// `body` parsed with depth limit `max_depth` when it is a JSON object; nullptr otherwise,
/// with `error` saying why ("expected a JSON object" or "invalid JSON: ..."). Never throws.
Poco::JSON::Object::Ptr parseJsonObject(const std::string& body, std::string& error,
                                        std::size_t max_depth = kMaxJsonDepth);

/// A JSON integer (not a float, not a boolean, not a string) that fits int64.
std::optional<std::int64_t> jsonInteger(const Poco::Dynamic::Var& value);
/// Any finite JSON number as a double (integers beyond int64 included).
std::optional<double> jsonNumber(const Poco::Dynamic::Var& value);

/// The member `key` of `object` through jsonInteger / jsonNumber; nullopt when absent or
/// null.
std::optional<std::int64_t> integerMember(const Poco::JSON::Object& object, const std::string& key);
std::optional<double> numberMember(const Poco::JSON::Object& object, const std::string& key);

}  // namespace skinpulse::plugins::support
