#include "JsonMapping.hpp"

#include "JsonNumbers.hpp"
#include "SourceSupport.hpp"

#include <Poco/JSON/Array.h>
#include <Poco/JSON/Object.h>

#include <charconv>
#include <cmath>
#include <stdexcept>
#include <system_error>
#include <typeinfo>

namespace skinpulse::plugins::json_http {
namespace {

using Poco::Dynamic::Var;

constexpr std::int64_t kMaxUnixSeconds = 253402300799;  // 9999-12-31T23:59:59Z
constexpr double kMaxExactDouble = 9.0e15;              // integral doubles below 2^53

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

bool allDigits(std::string_view s) {
  if (s.empty()) return false;
  for (const char c : s) {
    if (c < '0' || c > '9') return false;
  }
  return true;
}

// A plain decimal number ("12", "-0.512", "1e3"): what std::from_chars reads, nothing else.
std::optional<double> plainNumber(std::string_view text) {
  text = trim(text);
  if (text.empty() || text.size() > 64) return std::nullopt;
  double value = 0;
  const auto* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (ec != std::errc() || ptr != end || !std::isfinite(value)) return std::nullopt;
  return value;
}

// The integral value of a JSON number: an int64, or a float with no fraction.
std::optional<std::int64_t> integral(const Var& value) {
  if (const auto whole = support::jsonInteger(value)) return whole;
  if (value.isInteger()) return std::nullopt;  // an integer beyond int64
  const auto number = support::jsonNumber(value);
  if (!number || std::floor(*number) != *number || std::fabs(*number) > kMaxExactDouble) {
    return std::nullopt;
  }
  return static_cast<std::int64_t>(*number);
}

bool digits(std::string_view s, std::size_t& pos, std::size_t width, int& out) {
  if (!support::digitsAt(s, pos, width, out)) return false;
  pos += width;
  return true;
}

int daysInMonth(int y, int m) {
  static const int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  const bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
  return m == 2 && leap ? 29 : kDays[m - 1];
}

sdk::QuotedPrice major(double amount) {
  sdk::QuotedPrice price;
  price.form = sdk::QuotedPrice::Form::kMajor;
  price.major = amount;
  return price;
}

// A number in `unit`; nullopt for fractional cents.
std::optional<sdk::QuotedPrice> numericPrice(double amount, std::optional<std::int64_t> whole,
                                             PriceUnit unit) {
  switch (unit) {
    case PriceUnit::kMajor:
      return major(amount);
    case PriceUnit::kMilli:
      return major(amount / 1000.0);
    case PriceUnit::kCents:
      break;
  }
  if (!whole) return std::nullopt;
  sdk::QuotedPrice price;
  price.form = sdk::QuotedPrice::Form::kCents;
  price.cents = *whole;
  return price;
}

}  // namespace

std::optional<std::vector<std::string>> parsePointer(std::string_view pointer) {
  std::vector<std::string> tokens;
  if (pointer.empty()) return tokens;
  if (pointer.front() != '/') return std::nullopt;
  pointer.remove_prefix(1);
  while (true) {
    const auto slash = pointer.find('/');
    const std::string_view raw = pointer.substr(0, slash);
    std::string token;
    for (std::size_t i = 0; i < raw.size(); ++i) {
      if (raw[i] != '~') {
        token.push_back(raw[i]);
        continue;
      }
      if (i + 1 >= raw.size() || (raw[i + 1] != '0' && raw[i + 1] != '1')) return std::nullopt;
      token.push_back(raw[i + 1] == '0' ? '~' : '/');
      ++i;
    }
    tokens.push_back(std::move(token));
    if (slash == std::string_view::npos) break;
    pointer.remove_prefix(slash + 1);
  }
  return tokens;
}

FieldPath FieldPath::parse(std::string_view key, std::string_view text) {
  text = trim(text);
  FieldPath path;
  if (text.empty()) return path;
  if (text.front() == '#') {
    path.from_root = true;
    text.remove_prefix(1);
  } else if (text.front() != '/') {
    path.tokens.emplace_back(text);
    return path;
  }
  auto tokens = parsePointer(text);
  if (!tokens) {
    throw std::runtime_error(std::string(key) +
                             " is not a JSON pointer ('/a/b', '#/a/b'; '~' only as ~0 or ~1)");
  }
  path.tokens = std::move(*tokens);
  return path;
}

Var resolve(const Var& from, const std::vector<std::string>& tokens) {
  Var current = from;
  for (const auto& token : tokens) {
    if (current.type() == typeid(Poco::JSON::Object::Ptr)) {
      const auto object = current.extract<Poco::JSON::Object::Ptr>();
      if (object.isNull() || !object->has(token)) return {};
      current = object->get(token);
    } else if (current.type() == typeid(Poco::JSON::Array::Ptr)) {
      const auto array = current.extract<Poco::JSON::Array::Ptr>();
      unsigned index = 0;
      const auto* end = token.data() + token.size();
      const auto [ptr, ec] = std::from_chars(token.data(), end, index);
      if (array.isNull() || !allDigits(token) || ec != std::errc() || ptr != end ||
          index >= array->size()) {
        return {};
      }
      current = array->get(index);
    } else {
      return {};
    }
  }
  return current;
}

std::optional<sdk::QuotedPrice> readPrice(const Var& value, PriceUnit unit) {
  if (value.isEmpty() || value.isBoolean()) return std::nullopt;
  if (value.isString()) {
    const std::string text = value.extract<std::string>();
    if (trim(text).empty()) return std::nullopt;
    if (const auto number = plainNumber(text)) {
      const bool whole = std::floor(*number) == *number && std::fabs(*number) <= kMaxExactDouble;
      return numericPrice(
          *number,
          whole ? std::optional<std::int64_t>(static_cast<std::int64_t>(*number)) : std::nullopt,
          unit);
    }
    sdk::QuotedPrice price;  // "$1,234.56": the host's parser reads formatted text
    price.form = sdk::QuotedPrice::Form::kText;
    price.text = text;
    return price;
  }
  const auto number = support::jsonNumber(value);
  if (!number) return std::nullopt;
  return numericPrice(*number, integral(value), unit);
}

std::optional<std::int64_t> readCount(const Var& value) {
  std::optional<std::int64_t> count;
  if (value.isString()) {
    const std::string_view text = trim(value.extract<std::string>());
    std::int64_t parsed = 0;
    const auto* end = text.data() + text.size();
    const auto [ptr, ec] = std::from_chars(text.data(), end, parsed);
    if (allDigits(text) && ec == std::errc() && ptr == end) count = parsed;
  } else if (!value.isBoolean()) {
    count = integral(value);
  }
  if (!count || *count < 0) return std::nullopt;
  return count;
}

std::optional<std::int64_t> readTime(const Var& value) {
  std::optional<std::int64_t> seconds;
  if (value.isString()) {
    const std::string text = value.extract<std::string>();
    if (allDigits(trim(text))) {
      seconds = readCount(value);
    } else {
      seconds = parseIsoTime(text);
    }
  } else if (!value.isBoolean()) {
    if (const auto number = support::jsonNumber(value)) {
      if (*number >= 0 && *number <= static_cast<double>(kMaxUnixSeconds)) {
        seconds = static_cast<std::int64_t>(std::floor(*number));
      }
    }
  }
  if (!seconds || *seconds < 0 || *seconds > kMaxUnixSeconds) return std::nullopt;
  return seconds;
}

std::optional<std::int64_t> parseIsoTime(std::string_view s) {
  s = trim(s);
  std::size_t pos = 0;
  int year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0;
  if (!digits(s, pos, 4, year) || pos >= s.size() || s[pos++] != '-' || !digits(s, pos, 2, month) ||
      pos >= s.size() || s[pos++] != '-' || !digits(s, pos, 2, day)) {
    return std::nullopt;
  }
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return std::nullopt;
  std::int64_t offset = 0;
  if (pos < s.size()) {
    if (s[pos] != 'T' && s[pos] != 't' && s[pos] != ' ') return std::nullopt;
    ++pos;
    if (!digits(s, pos, 2, hour) || pos >= s.size() || s[pos++] != ':' ||
        !digits(s, pos, 2, minute)) {
      return std::nullopt;
    }
    if (pos < s.size() && s[pos] == ':') {
      ++pos;
      if (!digits(s, pos, 2, second)) return std::nullopt;
      if (pos < s.size() && (s[pos] == '.' || s[pos] == ',')) {
        ++pos;
        const std::size_t start = pos;
        while (pos < s.size() && s[pos] >= '0' && s[pos] <= '9') ++pos;
        if (pos == start) return std::nullopt;  // fraction truncated, but must have digits
      }
    }
    if (hour > 23 || minute > 59 || second > 60) return std::nullopt;
    if (second == 60) second = 59;  // leap second
    if (pos < s.size()) {
      if (s[pos] == 'Z' || s[pos] == 'z') {
        ++pos;
      } else if (s[pos] == '+' || s[pos] == '-') {
        const int sign = s[pos] == '-' ? -1 : 1;
        ++pos;
        int oh = 0, om = 0;
        if (!digits(s, pos, 2, oh)) return std::nullopt;
        if (pos < s.size() && s[pos] == ':') ++pos;
        if (pos < s.size() && !digits(s, pos, 2, om)) return std::nullopt;
        if (oh > 23 || om > 59) return std::nullopt;
        offset = sign * (oh * 3600 + om * 60);
      } else {
        return std::nullopt;
      }
    }
    if (pos != s.size()) return std::nullopt;
  }
  const std::int64_t seconds =
      support::daysFromCivil(year, static_cast<unsigned>(month), static_cast<unsigned>(day)) *
          86400 +
      hour * 3600 + minute * 60 + second - offset;
  if (seconds < 0 || seconds > kMaxUnixSeconds) return std::nullopt;
  return seconds;
}

}  // namespace skinpulse::plugins::json_http
