#include "store/SqlScript.hpp"

#include <cctype>

namespace skinpulse::store {
namespace {

std::string trimmed(const std::string& text) {
  std::size_t begin = 0;
  std::size_t end = text.size();
  while (begin < end && std::isspace(static_cast<unsigned char>(text[begin]))) ++begin;
  while (end > begin && std::isspace(static_cast<unsigned char>(text[end - 1]))) --end;
  return text.substr(begin, end - begin);
}

}  // namespace

std::vector<std::string> splitSqlStatements(std::string_view script) {
  std::vector<std::string> statements;
  std::string current;
  char quote = 0;  // the open quote character, 0 outside literals and quoted identifiers
  for (std::size_t i = 0; i < script.size(); ++i) {
    const char c = script[i];
    if (quote != 0) {
      current += c;
      if (c == quote) quote = 0;  // a doubled quote closes and reopens: same result
      continue;
    }
    if (c == '-' && i + 1 < script.size() && script[i + 1] == '-') {
      while (i < script.size() && script[i] != '\n') ++i;
      current += '\n';
      continue;
    }
    if (c == ';') {
      if (auto statement = trimmed(current); !statement.empty()) {
        statements.push_back(std::move(statement));
      }
      current.clear();
      continue;
    }
    if (c == '\'' || c == '"') quote = c;
    current += c;
  }
  if (auto statement = trimmed(current); !statement.empty()) {
    statements.push_back(std::move(statement));
  }
  return statements;
}

}  // namespace skinpulse::store
