#pragma once

#include <stdexcept>
#include <string>

namespace skinpulse::common {

/// A configuration problem: names the key (as the admin wrote it: `[daemon] listen` or
/// the environment variable) and what is wrong with it. Fatal at start.
///
/// `setting` says which value caused it, for the checker that reports every problem
/// (ConfigCheck): "section.key" for one value, "[section]" for a whole section, "" when
/// no single value is to blame.
class ConfigError : public std::runtime_error {
 public:
  ConfigError(const std::string& key, const std::string& problem, std::string setting = {})
      : std::runtime_error(key + ": " + problem), key_(key), setting_(std::move(setting)) {}
  const std::string& key() const { return key_; }
  const std::string& setting() const { return setting_; }

 private:
  std::string key_;
  std::string setting_;
};

}  // namespace skinpulse::common
