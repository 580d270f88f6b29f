#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace skinpulse::store {

/// Splits a migration file into statements, because SQLite prepares one statement at a
/// time. The rules the files follow (and document in their header): statements end with
/// ';', comments are '--' to the end of the line, no semicolon inside a string literal,
/// no compound statements such as triggers (their bodies hold semicolons). Quotes are
/// still honoured so that a stray ';' in a literal does not cut a statement in two.
std::vector<std::string> splitSqlStatements(std::string_view script);

}  // namespace skinpulse::store
