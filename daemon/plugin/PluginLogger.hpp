#pragma once

// sdk::Logger for one plugin instance: writes to the daemon's "plugin" logger
// (skinpulse::log::plugin()), each line prefixed with "<kind>.<instance>: ".

#include "skinpulse/sdk/host.hpp"

#include <string>
#include <string_view>

namespace skinpulse::plugin {

class PluginLogger final : public sdk::Logger {
 public:
  /// `label` identifies the instance in every line, e.g. "source.steam".
  explicit PluginLogger(std::string label);

  void log(sdk::LogLevel level, std::string_view message) override;

  const std::string& label() const { return label_; }

 private:
  std::string label_;
};

}  // namespace skinpulse::plugin
