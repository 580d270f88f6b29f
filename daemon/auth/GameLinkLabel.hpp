#pragma once

// GameLinkLabel: the body of PATCH /api/v1/auth/gameid/:platform_id (docs/api.md §23.2),
// {"label":"storage"}: the user's own name for a linked account. A label is at most 40
// characters (Unicode code points) of valid UTF-8 without control characters; "" clears
// it. Anything else is refused before the store is touched.

#include <cstddef>
#include <string>
#include <string_view>

namespace skinpulse::auth {

constexpr std::size_t kMaxGameLinkLabelChars = 40;

/// The label of `body`. Throws common::MalformedBody when the body is not a JSON object
/// and common::InvalidField when `label` is missing, not a string, too long or not
/// printable, or another field is present.
std::string parseGameLinkLabel(std::string_view body);

/// Whether `text` is valid UTF-8 of at most `max_chars` code points, none of them a
/// control character (C0, DEL, C1).
bool isPrintableLabel(std::string_view text, std::size_t max_chars);

}  // namespace skinpulse::auth
