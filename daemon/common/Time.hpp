#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace skinpulse::time {

/// Current wall-clock time, Unix seconds / milliseconds.
std::int64_t nowSeconds();
std::int64_t nowMillis();

/// "2026-11-22T10:15:00Z": UTC, whole seconds, as every timestamp of the API.
std::string formatIso8601(std::int64_t unix_seconds);

/// Parses an ISO 8601 UTC timestamp ("2026-11-22T10:15:00Z", fractional seconds and
/// "+00:00" accepted, fractions truncated); empty optional when malformed.
std::optional<std::int64_t> parseIso8601(std::string_view text);

}  // namespace skinpulse::time
