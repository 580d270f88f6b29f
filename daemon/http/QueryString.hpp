#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace skinpulse::http {

/// Percent-decodes `text` ('+' as space when `plus_is_space`); empty optional when an
/// escape is malformed. The result is bytes: callers that need UTF-8 check it.
std::optional<std::string> percentDecode(std::string_view text, bool plus_is_space);

/// Splits "a=1&b=x%20y" into decoded pairs; empty optional on a malformed escape.
std::optional<std::vector<std::pair<std::string, std::string>>> parseQuery(std::string_view query);

}  // namespace skinpulse::http
