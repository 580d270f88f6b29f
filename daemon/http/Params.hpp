#pragma once

// Validation of path and query parameters; every refusal is 400 invalid_parameter with
// a detail naming the parameter (docs/api.md §2).

#include "http/Request.hpp"

#include <cstdint>
#include <optional>
#include <string>

namespace skinpulse::http {

/// `:name` as a positive integer (digits only, no sign, > 0, within int64).
std::int64_t positiveIdParam(const Request& request, const std::string& name);

/// Optional integer query parameter within [min, max]; `fallback` when absent.
std::int64_t integerParam(const Request& request, const std::string& name, std::int64_t fallback,
                          std::int64_t min, std::int64_t max);

/// Optional `true`/`false` query parameter.
std::optional<bool> booleanParam(const Request& request, const std::string& name);

/// Optional text query parameter: valid UTF-8, at most `max_bytes`; empty is refused
/// unless `allow_empty` (then it counts as absent).
std::optional<std::string> textParam(const Request& request, const std::string& name,
                                     std::size_t max_bytes, bool allow_empty);

/// History/metrics windows: 1h, 24h, 7d → seconds; `fallback` when absent.
std::int64_t windowParam(const Request& request, const std::string& fallback);

}  // namespace skinpulse::http
