#pragma once

// Looking protocol parameters up in decoded query or form fields (sdk::parseQuery),
// where a repeated parameter must never be resolved by picking one of its values.

#include "skinpulse/sdk/types.hpp"

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace skinpulse::plugins::identity {

/// How many times `name` occurs in `fields`.
std::size_t countField(const sdk::Fields& fields, std::string_view name);

/// The value of `name` when it occurs exactly once; nullopt when absent or repeated (a
/// repeated protocol parameter is ambiguous and is never resolved by picking one).
std::optional<std::string> singleField(const sdk::Fields& fields, std::string_view name);

}  // namespace skinpulse::plugins::identity
