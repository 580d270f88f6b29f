#include "common/OptionTable.hpp"

#include "common/ConfigError.hpp"
#include "common/ValueParsers.hpp"

namespace skinpulse::common {

std::string OptionReader::text(const std::string& key) const {
  const auto value = tree_.find(key);
  return value ? value->text : std::string();
}

std::int64_t OptionReader::integer(const std::string& key, std::int64_t min,
                                   std::int64_t max) const {
  const auto parsed = parseInteger(text(key));
  if (!parsed || *parsed < min || *parsed > max) {
    throw ConfigError(tree_.describe(key),
                      "'" + text(key) + "' is not an integer in " + std::to_string(min) + ".." +
                          std::to_string(max),
                      key);
  }
  return *parsed;
}

bool OptionReader::boolean(const std::string& key) const {
  const auto parsed = parseBoolean(text(key));
  if (!parsed) {
    throw ConfigError(tree_.describe(key), "'" + text(key) + "' is not true or false", key);
  }
  return *parsed;
}

std::vector<std::string> OptionReader::list(const std::string& key) const {
  return splitList(text(key));
}

std::string OptionReader::url(const std::string& key) const {
  std::string value = text(key);
  if (!isHttpUrl(value)) fail(key, "must be an http:// or https:// URL");
  return value;
}

void OptionReader::fail(const std::string& key, const std::string& problem) const {
  throw ConfigError(tree_.describe(key), problem, key);
}

}  // namespace skinpulse::common
