#pragma once

// JsonWriter: a small streaming JSON writer for response bodies. Hot endpoints build
// their bodies with it (or from pre-rendered fragments) instead of a DOM.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace skinpulse::common {

/// Appends `text` to `out` as a JSON string literal (quotes included). Invalid UTF-8
/// bytes are replaced by U+FFFD so the body is always valid JSON.
void appendJsonString(std::string& out, std::string_view text);

class JsonWriter {
 public:
  JsonWriter& beginObject();
  JsonWriter& endObject();
  JsonWriter& beginArray();
  JsonWriter& endArray();
  JsonWriter& key(std::string_view name);
  JsonWriter& value(std::string_view text);
  JsonWriter& value(const char* text) { return value(std::string_view(text)); }
  JsonWriter& value(std::int64_t number);
  JsonWriter& value(int number) { return value(static_cast<std::int64_t>(number)); }
  JsonWriter& value(double number);
  JsonWriter& value(bool flag);
  JsonWriter& null();
  /// Inserts already-serialised JSON (e.g. a cached item object).
  JsonWriter& raw(std::string_view json);

  const std::string& str() const { return out_; }
  std::string take() { return std::move(out_); }

 private:
  void separate();

  std::string out_;
  std::vector<bool> first_;  ///< per open container: no element written yet
  bool after_key_ = false;
};

}  // namespace skinpulse::common
