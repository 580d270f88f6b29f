#pragma once

// JSON from an identity provider is untrusted input: parse it with a nesting limit and
// get typed members without exceptions. Callers have already capped the byte size through
// the host HTTP client.

#include <Poco/JSON/Array.h>
#include <Poco/JSON/Object.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace skinpulse::plugins::identity {

/// Nesting deeper than this is refused (the documented shapes need 2 or 3 levels).
inline constexpr std::size_t kMaxJsonDepth = 16;

/// The top-level object of `text`, or null when it is not valid JSON, nests too deeply or
/// is not an object.
Poco::JSON::Object::Ptr parseObject(std::string_view text);
/// The top-level array of `text`, or null (as parseObject).
Poco::JSON::Array::Ptr parseArray(std::string_view text);

/// A member that is a JSON string; nullopt when absent, null or another type.
std::optional<std::string> stringMember(const Poco::JSON::Object& object, const std::string& key);
/// A member that is a JSON boolean; nullopt otherwise.
std::optional<bool> boolMember(const Poco::JSON::Object& object, const std::string& key);
/// A member that is a JSON integer (not a float, not a string); nullopt otherwise.
std::optional<std::int64_t> integerMember(const Poco::JSON::Object& object, const std::string& key);

}  // namespace skinpulse::plugins::identity
