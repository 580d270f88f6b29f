#include "plugin/MapConfig.hpp"

namespace skinpulse::plugin {

MapConfig::MapConfig(std::map<std::string, std::string> values)
    : values_(values.begin(), values.end()) {}

std::optional<std::string> MapConfig::get(std::string_view key) const {
  const auto it = values_.find(key);
  if (it == values_.end()) return std::nullopt;
  return it->second;
}

std::vector<std::string> MapConfig::keys() const {
  std::vector<std::string> result;
  result.reserve(values_.size());
  for (const auto& entry : values_) result.push_back(entry.first);
  return result;
}

}  // namespace skinpulse::plugin
