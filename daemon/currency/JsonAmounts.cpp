#include "currency/JsonAmounts.hpp"

#include <algorithm>
#include <charconv>
#include <vector>

namespace skinpulse::currency {
namespace {

bool numberStart(char c) { return c == '-' || (c >= '0' && c <= '9'); }

bool numberChar(char c) {
  return (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E';
}

}  // namespace

std::string convertJsonAmounts(std::string_view json, const Conversion& money,
                               const std::vector<std::string_view>& paths) {
  if (!money.requested()) return std::string(json);
  std::string out;
  out.reserve(json.size() + json.size() / 8);
  // The key path of each open object, "" for a top-level object; arrays push nothing.
  struct Frame {
    bool object;
    std::string path;
  };
  std::vector<Frame> stack;
  std::string last_key;  // the key whose value comes next, within the innermost object
  bool after_colon = false;
  std::size_t i = 0;
  auto full = [&](const std::string& key) {
    const std::string& base = stack.empty() ? std::string() : stack.back().path;
    return base.empty() ? key : base + "." + key;
  };
  while (i < json.size()) {
    const char c = json[i];
    if (c == '"') {
      const std::size_t begin = i++;
      while (i < json.size() && json[i] != '"') i += json[i] == '\\' ? 2 : 1;
      i = std::min(i + 1, json.size());
      const std::string_view token = json.substr(begin, i - begin);
      out.append(token);
      if (!after_colon && !stack.empty() && stack.back().object) {
        last_key.assign(token.substr(1, token.size() >= 2 ? token.size() - 2 : 0));
      }
      after_colon = false;
      continue;
    }
    if (c == ':') {
      after_colon = true;
      out += c;
      ++i;
      continue;
    }
    if (c == '{') {
      std::string path;
      if (after_colon) path = full(last_key);
      // Objects directly at the top or directly in a top-level array start a fresh path.
      const bool top = stack.empty() || (stack.size() == 1 && !stack.back().object);
      stack.push_back({true, top ? std::string() : path});
      after_colon = false;
      out += c;
      ++i;
      continue;
    }
    if (c == '[') {
      stack.push_back({false, std::string()});
      after_colon = false;
      out += c;
      ++i;
      continue;
    }
    if (c == '}' || c == ']') {
      const bool top_object =
          c == '}' && (stack.size() == 1 || (stack.size() == 2 && !stack.front().object));
      if (top_object) {
        out += ",\"currency\":\"";
        out += money.code();
        out += '"';
      }
      if (!stack.empty()) stack.pop_back();
      after_colon = false;
      out += c;
      ++i;
      continue;
    }
    if (after_colon && numberStart(c)) {
      std::size_t end = i;
      while (end < json.size() && numberChar(json[end])) ++end;
      const std::string_view number = json.substr(i, end - i);
      const std::string key = full(last_key);
      const bool wanted = std::find(paths.begin(), paths.end(), key) != paths.end();
      const bool integral = number.find_first_of(".eE") == std::string_view::npos;
      std::int64_t whole = 0;
      if (wanted && integral &&
          std::from_chars(number.data(), number.data() + number.size(), whole).ptr ==
              number.data() + number.size()) {
        out += std::to_string(money.amount(whole));  // exact for integer cents
      } else if (wanted) {
        double value = 0;
        const auto parsed = std::from_chars(number.data(), number.data() + number.size(), value);
        if (parsed.ec == std::errc() && parsed.ptr == number.data() + number.size()) {
          out += std::to_string(money.amount(value));
        } else {
          out.append(number);
        }
      } else {
        out.append(number);
      }
      after_colon = false;
      i = end;
      continue;
    }
    if (c == ',') after_colon = false;
    out += c;
    ++i;
  }
  return out;
}

}  // namespace skinpulse::currency
