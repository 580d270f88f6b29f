#include "FieldLookup.hpp"

namespace skinpulse::plugins::identity {

std::size_t countField(const sdk::Fields& fields, std::string_view name) {
  std::size_t count = 0;
  for (const auto& [key, value] : fields) {
    if (key == name) ++count;
  }
  return count;
}

std::optional<std::string> singleField(const sdk::Fields& fields, std::string_view name) {
  std::optional<std::string> found;
  for (const auto& [key, value] : fields) {
    if (key != name) continue;
    if (found) return std::nullopt;
    found = value;
  }
  return found;
}

}  // namespace skinpulse::plugins::identity
