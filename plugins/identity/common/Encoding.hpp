#pragma once

// Percent-encoding for URLs and application/x-www-form-urlencoded bodies, and the
// reverse for query strings. Values are bytes: UTF-8 passes through byte by byte.

#include "skinpulse/sdk/types.hpp"

#include <optional>
#include <string>
#include <string_view>

namespace skinpulse::plugins::identity {

/// RFC 3986 percent-encoding of every byte but the unreserved ones (a space is %20).
std::string percentEncode(std::string_view text);

/// `name=value&name=value` with both sides percent-encoded, in the given order. Used for
/// query strings and form bodies alike (a form decoder accepts %20 for a space).
std::string formEncode(const sdk::Fields& fields);

/// Decodes %XX escapes, and '+' as a space (the form/query convention). Nullopt when an
/// escape is truncated or not hexadecimal: a malformed value is refused, never guessed.
std::optional<std::string> formDecode(std::string_view text);

/// Splits a query string (without the '?') into decoded pairs in order. Empty segments
/// (`a=1&&b=2`) are skipped; a segment without '=' has an empty value. Nullopt when any
/// escape is malformed.
std::optional<sdk::Fields> parseQuery(std::string_view query);

/// Appends `query` to `url` with '?' or, when the URL already has a query, '&'.
std::string appendQuery(const std::string& url, const std::string& query);

/// How many times `name` occurs in `fields`.
std::size_t countField(const sdk::Fields& fields, std::string_view name);

/// The value of `name` when it occurs exactly once; nullopt when absent or repeated (a
/// repeated protocol parameter is ambiguous and is never resolved by picking one).
std::optional<std::string> singleField(const sdk::Fields& fields, std::string_view name);

}  // namespace skinpulse::plugins::identity
