#pragma once

// Parsers for configuration and query values. Each answers an empty optional (or false)
// on anything it does not accept in full: no partial parses, no silent defaults.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace skinpulse::common {

/// Decimal integer, optional leading '-', no spaces, no '+', within int64.
std::optional<std::int64_t> parseInteger(std::string_view text);
/// true/false, yes/no, on/off, 1/0 (case-insensitive).
std::optional<bool> parseBoolean(std::string_view text);
/// "a.b.c.d:port", "localhost:port" or "[v6]:port" ("[::]:8080" = every address, IPv4
/// too), port 0..65535. The host comes back without brackets.
std::optional<std::pair<std::string, std::uint16_t>> parseListenAddress(std::string_view text);
/// Comma-separated list, items trimmed, empty items dropped.
std::vector<std::string> splitList(std::string_view text);

bool isHttpUrl(std::string_view text);
bool isSupportedDatabaseUrl(std::string_view text);
bool isValidCidr(std::string_view text);
/// [a-z0-9_-]{1,64}
bool isValidInstanceName(std::string_view text);

}  // namespace skinpulse::common
