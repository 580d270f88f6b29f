#pragma once

#include <stdexcept>
#include <string>

namespace skinpulse {

/// A configuration problem: names the key (as the admin wrote it: `[daemon] listen` or
/// the environment variable) and what is wrong with it. Fatal at start.
class ConfigError : public std::runtime_error {
 public:
  ConfigError(const std::string& key, const std::string& problem)
      : std::runtime_error(key + ": " + problem), key_(key) {}
  const std::string& key() const { return key_; }

 private:
  std::string key_;
};

}  // namespace skinpulse
