#pragma once

// OptionTable: a feature's configuration keys as one table. Each row names the key
// ("section.key"), its type and range, the environment variable that overrides it, its
// built-in default and a description, and the field of the feature's `<Feature>Options`
// it fills. The same rows layer defaults and environment into the ConfigTree, reject
// unknown keys, drive --check-config and generate docs/configuration.md
// (skinpulsed --print-config-reference), so adding a key is one row and one field.
//
// Checks a type cannot express (a CIDR list, a default derived from another key) follow
// the table read in the feature's read function.

#include "common/ConfigTree.hpp"

#include <cstdint>
#include <string>
#include <type_traits>
#include <variant>
#include <vector>

namespace skinpulse::common {

enum class OptionType {
  kText,     ///< any text
  kUrl,      ///< an http:// or https:// URL
  kInteger,  ///< a decimal integer in [min, max]
  kBoolean,  ///< true/false, yes/no, on/off, 1/0
  kList,     ///< a comma-separated list
};

/// The description of one key, without its binding: what the reference and the
/// checker need.
struct OptionSpec {
  const char* key;  ///< "section.key"
  OptionType type = OptionType::kText;
  std::int64_t min = 0;            ///< kInteger only
  std::int64_t max = 0;            ///< kInteger only
  const char* env = nullptr;       ///< environment variable, or nullptr
  const char* fallback = nullptr;  ///< built-in default; nullptr: none, or derived (below)
  const char* description = "";    ///< one sentence or two, for docs/configuration.md
  const char* derived = nullptr;   ///< how the default is derived when there is no fallback
};

/// A row: the spec and the field of `Options` it fills (std::monostate: read elsewhere).
template <typename Options>
struct OptionRow {
  using Field =
      std::variant<std::monostate, std::string Options::*, int Options::*, std::int64_t Options::*,
                   bool Options::*, std::vector<std::string> Options::*>;
  OptionRow(OptionSpec spec_in) : spec(spec_in) {}  // NOLINT: rows are written as {{...}}
  template <typename Member>
  OptionRow(OptionSpec spec_in, Member member) : spec(spec_in), field(member) {}

  OptionSpec spec;
  Field field;
};

template <typename Options>
using OptionTable = std::vector<OptionRow<Options>>;

/// Typed reads of a ConfigTree whose defaults and environment are layered in. Every
/// failure is a ConfigError naming the key as the admin wrote it.
class OptionReader {
 public:
  explicit OptionReader(const ConfigTree& tree) : tree_(tree) {}

  std::string text(const std::string& key) const;
  bool present(const std::string& key) const { return tree_.has(key); }
  std::int64_t integer(const std::string& key, std::int64_t min, std::int64_t max) const;
  int smallInt(const std::string& key, int min, int max) const {
    return static_cast<int>(integer(key, min, max));
  }
  bool boolean(const std::string& key) const;
  std::vector<std::string> list(const std::string& key) const;
  /// An http:// or https:// URL.
  std::string url(const std::string& key) const;
  [[noreturn]] void fail(const std::string& key, const std::string& problem) const;
  const ConfigTree& tree() const { return tree_; }

 private:
  const ConfigTree& tree_;
};

/// Fills the field `row` binds (if any) from `key`, when present. Throws ConfigError.
template <typename Options>
void readOptionRow(const OptionRow<Options>& row, const std::string& key, const OptionReader& read,
                   Options& out) {
  if (std::holds_alternative<std::monostate>(row.field) || !read.present(key)) return;
  std::visit(
      [&](auto field) {
        using Field = decltype(field);
        if constexpr (std::is_same_v<Field, std::string Options::*>) {
          out.*field = row.spec.type == OptionType::kUrl ? read.url(key) : read.text(key);
        } else if constexpr (std::is_same_v<Field, int Options::*>) {
          out.*field = static_cast<int>(read.integer(key, row.spec.min, row.spec.max));
        } else if constexpr (std::is_same_v<Field, std::int64_t Options::*>) {
          out.*field = read.integer(key, row.spec.min, row.spec.max);
        } else if constexpr (std::is_same_v<Field, bool Options::*>) {
          out.*field = read.boolean(key);
        } else if constexpr (std::is_same_v<Field, std::vector<std::string> Options::*>) {
          out.*field = read.list(key);
        }
      },
      row.field);
}

/// Fills the bound fields of `out` from the rows of `table` whose key is present (every
/// key with a fallback is). Throws ConfigError.
template <typename Options>
void readOptions(const OptionTable<Options>& table, const OptionReader& read, Options& out) {
  for (const auto& row : table) readOptionRow(row, row.spec.key, read, out);
}

/// The key of a row of an instance table ("source.NAME.plugin") in one instance's
/// `section` ("source.steam" → "source.steam.plugin").
inline std::string instanceKey(const char* row_key, const std::string& section) {
  const std::string key = row_key;
  return section + key.substr(key.rfind('.'));
}

/// Instance sections (`[source.NAME]`, `[rates.NAME]`): their table's keys are written
/// "source.NAME.key", and a key the section lacks keeps the field's default, which must
/// be the row's fallback (nothing is layered into the tree for a section that may not
/// exist). Throws ConfigError.
template <typename Options>
void readInstanceOptions(const OptionTable<Options>& table, const OptionReader& read,
                         const std::string& section, Options& out) {
  for (const auto& row : table) readOptionRow(row, instanceKey(row.spec.key, section), read, out);
}

/// The specs of `table`, for the reference and the checker.
template <typename Options>
std::vector<OptionSpec> specsOf(const OptionTable<Options>& table) {
  std::vector<OptionSpec> specs;
  specs.reserve(table.size());
  for (const auto& row : table) specs.push_back(row.spec);
  return specs;
}

}  // namespace skinpulse::common
