#include "common/ConfigTree.hpp"

#include "common/ConfigError.hpp"

#include <algorithm>
#include <fstream>
#include <sstream>

namespace skinpulse::common {
namespace {

std::string trim(const std::string& s) {
  const auto begin = s.find_first_not_of(" \t\r");
  if (begin == std::string::npos) return {};
  const auto end = s.find_last_not_of(" \t\r");
  return s.substr(begin, end - begin + 1);
}

std::string stripInlineComment(const std::string& s) {
  for (std::size_t i = 1; i < s.size(); ++i) {
    if ((s[i] == ';' || s[i] == '#') && (s[i - 1] == ' ' || s[i - 1] == '\t')) {
      return s.substr(0, i);
    }
  }
  return s;
}

bool validName(const std::string& name) {
  return !name.empty() && std::all_of(name.begin(), name.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
           c == '-' || c == '.';
  });
}

}  // namespace

void ConfigTree::loadIniFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ConfigError(path, "cannot read configuration file");
  std::ostringstream text;
  text << in.rdbuf();
  loadIniText(text.str(), path);
}

void ConfigTree::loadIniText(const std::string& text, const std::string& origin_name) {
  std::istringstream in(text);
  std::string line;
  std::string section;
  int number = 0;
  while (std::getline(in, line)) {
    ++number;
    const std::string where = origin_name + ":" + std::to_string(number);
    std::string content = trim(line);
    if (content.empty() || content[0] == ';' || content[0] == '#') continue;
    content = trim(stripInlineComment(content));
    if (content.front() == '[') {
      if (content.back() != ']') throw ConfigError(where, "malformed section header");
      section = trim(content.substr(1, content.size() - 2));
      if (!validName(section)) throw ConfigError(where, "invalid section name '" + section + "'");
      noteSection(section);
      continue;
    }
    const auto equals = content.find('=');
    if (equals == std::string::npos) throw ConfigError(where, "expected 'key = value'");
    const std::string key = trim(content.substr(0, equals));
    if (section.empty()) throw ConfigError(where, "key '" + key + "' outside any [section]");
    if (!validName(key) || key.find('.') != std::string::npos) {
      throw ConfigError(where, "invalid key name '" + key + "'");
    }
    set(section + "." + key, trim(content.substr(equals + 1)), where);
  }
}

void ConfigTree::set(const std::string& key, const std::string& value, const std::string& origin) {
  const auto dot = key.rfind('.');
  if (dot != std::string::npos) noteSection(key.substr(0, dot));
  values_[key] = Value{value, origin};
}

std::optional<ConfigTree::Value> ConfigTree::find(const std::string& key) const {
  const auto it = values_.find(key);
  if (it == values_.end()) return std::nullopt;
  return it->second;
}

std::vector<std::string> ConfigTree::keysOf(const std::string& section) const {
  std::vector<std::string> keys;
  const std::string prefix = section + ".";
  for (auto it = values_.lower_bound(prefix); it != values_.end(); ++it) {
    if (it->first.compare(0, prefix.size(), prefix) != 0) break;
    const std::string rest = it->first.substr(prefix.size());
    if (rest.find('.') == std::string::npos) keys.push_back(rest);
  }
  return keys;
}

std::string ConfigTree::describe(const std::string& key) const {
  const auto value = find(key);
  const auto dot = key.rfind('.');
  const std::string ini =
      dot == std::string::npos ? key : "[" + key.substr(0, dot) + "] " + key.substr(dot + 1);
  if (!value || value->origin == "default") return ini;
  // Environment variables are named as such; file values by section, key and place.
  if (value->origin.find(':') == std::string::npos) return value->origin;
  return ini + " (" + value->origin + ")";
}

void ConfigTree::noteSection(const std::string& section) {
  if (std::find(sections_.begin(), sections_.end(), section) == sections_.end()) {
    sections_.push_back(section);
  }
}

}  // namespace skinpulse::common
