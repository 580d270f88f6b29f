#include "store/Sql.hpp"

namespace skinpulse::store {

std::string adaptPlaceholders(Backend backend, std::string_view sql) {
  if (backend == Backend::kSqlite) return std::string(sql);
  std::string out;
  out.reserve(sql.size() + sql.size() / 4);
  std::size_t n = 0;
  for (char c : sql) {
    if (c == '?') {
      out += '$';
      out += std::to_string(++n);
    } else {
      out += c;
    }
  }
  return out;
}

std::string placeholderRow(std::size_t arity) {
  std::string row = "(";
  for (std::size_t i = 0; i < arity; ++i) row += i == 0 ? "?" : ", ?";
  return row + ")";
}

std::string placeholderRows(std::size_t arity, std::size_t rows) {
  const std::string row = placeholderRow(arity);
  std::string out;
  out.reserve((row.size() + 2) * rows);
  for (std::size_t i = 0; i < rows; ++i) {
    if (i != 0) out += ", ";
    out += row;
  }
  return out;
}

}  // namespace skinpulse::store
