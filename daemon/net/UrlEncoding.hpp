#pragma once

// Percent-encoding for the query strings plugins build (HttpRequest::url must arrive
// already encoded). Item names such as "★ StatTrak™ Karambit | Fade (Factory New)" carry
// UTF-8, spaces and '&'/'#', each of which would otherwise change the URL's meaning.

#include "skinpulse/sdk/types.hpp"

#include <string>
#include <string_view>

namespace skinpulse {

/// Encodes every byte of `value` (UTF-8 is taken byte by byte) except the RFC 3986
/// unreserved characters A-Z a-z 0-9 - . _ ~ as %XX (upper-case hex). A space becomes
/// %20, never '+', which some servers would keep as a literal plus.
std::string percentEncode(std::string_view value);

/// "name=value&name=value" with names and values percent-encoded, in the given order.
std::string encodeQuery(const sdk::Fields& fields);

}  // namespace skinpulse
