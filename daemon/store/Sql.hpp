#pragma once

// Small helpers that let one SQL text serve both backends. Statements are written with
// SQLite's '?' placeholders; PostgreSQL wants $1, $2, ... instead. Our SQL never has a
// '?' inside a string literal, which keeps the rewrite a plain substitution.

#include "store/DatabaseUrl.hpp"

#include <cstddef>
#include <string>
#include <string_view>

namespace skinpulse::store {

/// `sql` with every '?' numbered as $n for PostgreSQL; unchanged for SQLite.
std::string adaptPlaceholders(Backend backend, std::string_view sql);

/// "(?, ?, ?)" for arity 3.
std::string placeholderRow(std::size_t arity);

/// "(?, ?), (?, ?)" for arity 2 and 2 rows.
std::string placeholderRows(std::size_t arity, std::size_t rows);

}  // namespace skinpulse::store
