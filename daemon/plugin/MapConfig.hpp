#pragma once

// sdk::Config over an immutable key/value map: the plugin-visible keys of one instance.

#include "skinpulse/sdk/host.hpp"

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace skinpulse::plugin {

class MapConfig final : public sdk::Config {
 public:
  explicit MapConfig(std::map<std::string, std::string> values);

  std::optional<std::string> get(std::string_view key) const override;
  /// Sorted.
  std::vector<std::string> keys() const override;

 private:
  std::map<std::string, std::string, std::less<>> values_;
};

}  // namespace skinpulse::plugin
