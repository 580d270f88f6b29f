#pragma once

// ConfigTree: the layered configuration of docs/api.md §1.2, flattened to
// "section.key" → value with the origin of every value (file:line or environment
// variable) so error messages point where the admin must look.
//
// Layers, lowest to highest precedence: built-in defaults → main file → conf.d/*.ini in
// lexical order → environment variables. Later layers overwrite values; the order in
// which sections first appeared is kept (it is the default order of reference sources).

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace skinpulse::common {

class ConfigTree {
 public:
  struct Value {
    std::string text;
    std::string origin;  ///< "file.ini:12", "LISTEN" or "default"
  };

  /// Parses an INI file and layers it on top. Throws ConfigError on unreadable files and
  /// malformed lines. Full-line comments start with ';' or '#'; a ';' or '#' preceded by
  /// whitespace starts an inline comment.
  void loadIniFile(const std::string& path);
  void loadIniText(const std::string& text, const std::string& origin_name);

  void set(const std::string& key, const std::string& value, const std::string& origin);

  std::optional<Value> find(const std::string& key) const;
  bool has(const std::string& key) const { return values_.count(key) != 0; }

  /// Section names in order of first appearance ("daemon", "source.simulated", ...).
  const std::vector<std::string>& sections() const { return sections_; }
  /// Keys of one section (without the section prefix), sorted.
  std::vector<std::string> keysOf(const std::string& section) const;

  /// How the admin would name `key` in a message: "[source.x] url" or the env variable.
  std::string describe(const std::string& key) const;

 private:
  void noteSection(const std::string& section);

  std::map<std::string, Value> values_;
  std::vector<std::string> sections_;
};

}  // namespace skinpulse::common
