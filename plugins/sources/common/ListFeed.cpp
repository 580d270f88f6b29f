#include "ListFeed.hpp"

#include "SourceSupport.hpp"

#include <charconv>
#include <cmath>
#include <limits>
#include <system_error>

namespace skinpulse::plugins::support {
namespace {

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

std::optional<std::int64_t> wholeOf(double number) {
  if (std::floor(number) != number || std::fabs(number) > kMaxExactDouble) return std::nullopt;
  return static_cast<std::int64_t>(number);
}

sdk::QuotedPrice majorPrice(double amount) {
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
      return majorPrice(amount);
    case PriceUnit::kMilli:
      return majorPrice(amount / 1000.0);
    case PriceUnit::kCents:
      break;
  }
  if (!whole) return std::nullopt;
  sdk::QuotedPrice price;
  price.form = sdk::QuotedPrice::Form::kCents;
  price.cents = *whole;
  return price;
}

bool digits(std::string_view s, std::size_t& pos, std::size_t width, int& out) {
  if (!digitsAt(s, pos, width, out)) return false;
  pos += width;
  return true;
}

int daysInMonth(int y, int m) {
  static const int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  const bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
  return m == 2 && leap ? 29 : kDays[m - 1];
}

bool representable(std::string_view number) {
  const auto* end = number.data() + number.size();
  if (number.find_first_of(".eE") == std::string_view::npos) {
    std::int64_t signed_value = 0;
    std::uint64_t unsigned_value = 0;
    if (std::from_chars(number.data(), end, signed_value).ec == std::errc()) return true;
    return std::from_chars(number.data(), end, unsigned_value).ec == std::errc();
  }
  double value = 0;
  return std::from_chars(number.data(), end, value).ec == std::errc();
}

// simdjson's DOM refuses a whole document over one number it cannot hold (an integer beyond
// 64 bits, 1e400): valid JSON that Poco read as a double. So that one hostile value costs its
// row and not the feed, such numbers become `null` (padded with spaces) and the copy is
// parsed again. Only on NUMBER_ERROR: the fast path never scans.
bool nullUnrepresentableNumbers(std::string& body) {
  bool changed = false;
  bool in_string = false;
  for (std::size_t i = 0; i < body.size(); ++i) {
    const char c = body[i];
    if (in_string) {
      if (c == '\\') {
        ++i;
      } else if (c == '"') {
        in_string = false;
      }
      continue;
    }
    if (c == '"') {
      in_string = true;
      continue;
    }
    if (c != '-' && (c < '0' || c > '9')) continue;
    std::size_t end = i;
    while (end < body.size() &&
           std::string_view("0123456789+-.eE").find(body[end]) != std::string_view::npos) {
      ++end;
    }
    if (end - i >= 4 && !representable(std::string_view(body).substr(i, end - i))) {
      body.replace(i, end - i, end - i, ' ');
      body.replace(i, 4, "null");
      changed = true;
    }
    i = end - 1;
  }
  return changed;
}

}  // namespace

FeedValue FeedValue::member(std::string_view key) const {
  simdjson::dom::object object;
  simdjson::dom::element value;
  if (!present_ || element_.get_object().get(object) != simdjson::SUCCESS ||
      object.at_key(key).get(value) != simdjson::SUCCESS) {
    return {};
  }
  return FeedValue(value);
}

std::size_t FeedValue::size() const {
  simdjson::dom::array array;
  simdjson::dom::object object;
  if (!present_) return 0;
  if (element_.get_array().get(array) == simdjson::SUCCESS) return array.size();
  if (element_.get_object().get(object) == simdjson::SUCCESS) return object.size();
  return 0;
}

FeedValue FeedValue::at(const std::vector<std::string>& tokens) const {
  // The common case, a member of the row: no array test, no copy.
  if (tokens.size() == 1 && present_ && element_.is_object()) return member(tokens.front());
  FeedValue current = *this;
  for (const auto& token : tokens) {
    if (!current.present_) return {};
    simdjson::dom::array array;
    if (current.element_.get_array().get(array) == simdjson::SUCCESS) {
      std::size_t index = 0;
      const auto* end = token.data() + token.size();
      const auto [ptr, ec] = std::from_chars(token.data(), end, index);
      simdjson::dom::element value;
      if (!allDigits(token) || ec != std::errc() || ptr != end ||
          array.at(index).get(value) != simdjson::SUCCESS) {
        return {};
      }
      current = FeedValue(value);
    } else {
      current = current.member(token);
    }
  }
  return current;
}

std::optional<std::string_view> FeedValue::text() const {
  std::string_view value;
  if (!present_ || element_.get_string().get(value) != simdjson::SUCCESS) return std::nullopt;
  return value;
}

std::optional<bool> FeedValue::boolean() const {
  bool value = false;
  if (!present_ || element_.get_bool().get(value) != simdjson::SUCCESS) return std::nullopt;
  return value;
}

std::optional<double> FeedValue::number() const {
  if (!present_) return std::nullopt;
  // get_double() converts int64 and uint64 too; strings and booleans are not numbers.
  double value = 0;
  if (element_.get_double().get(value) != simdjson::SUCCESS || !std::isfinite(value)) {
    return std::nullopt;
  }
  return value;
}

std::optional<std::int64_t> FeedValue::integral() const {
  if (!present_) return std::nullopt;
  switch (element_.type()) {
    case simdjson::dom::element_type::INT64: {
      std::int64_t value = 0;
      if (element_.get_int64().get(value) != simdjson::SUCCESS) return std::nullopt;
      return value;
    }
    case simdjson::dom::element_type::DOUBLE: {
      const auto value = number();
      return value ? wholeOf(*value) : std::nullopt;
    }
    default:
      return std::nullopt;  // an integer beyond int64 (UINT64), a string, …
  }
}

std::optional<sdk::QuotedPrice> FeedValue::price(PriceUnit unit) const {
  if (const auto raw = text()) {
    if (trim(*raw).empty()) return std::nullopt;
    if (const auto value = plainNumber(*raw)) return numericPrice(*value, wholeOf(*value), unit);
    sdk::QuotedPrice price;  // "$1,234.56": the host's parser reads formatted text
    price.form = sdk::QuotedPrice::Form::kText;
    price.text = std::string(*raw);
    return price;
  }
  const auto value = number();
  if (!value) return std::nullopt;
  return numericPrice(*value, integral(), unit);
}

std::optional<std::int64_t> FeedValue::count() const {
  std::optional<std::int64_t> counted;
  if (const auto raw = text()) {
    const std::string_view digits_only = trim(*raw);
    std::int64_t parsed = 0;
    const auto* end = digits_only.data() + digits_only.size();
    const auto [ptr, ec] = std::from_chars(digits_only.data(), end, parsed);
    if (allDigits(digits_only) && ec == std::errc() && ptr == end) counted = parsed;
  } else {
    counted = integral();
  }
  if (!counted || *counted < 0) return std::nullopt;
  return counted;
}

std::optional<std::int64_t> FeedValue::time() const {
  std::optional<std::int64_t> seconds;
  if (const auto raw = text()) {
    seconds = allDigits(trim(*raw)) ? count() : parseIsoTime(*raw);
  } else if (const auto value = number()) {
    if (*value >= 0 && *value <= static_cast<double>(kMaxUnixSeconds)) {
      seconds = static_cast<std::int64_t>(std::floor(*value));
    }
  }
  if (!seconds || *seconds < 0 || *seconds > kMaxUnixSeconds) return std::nullopt;
  return seconds;
}

std::optional<std::string> ListFeed::parse(const std::string& body, std::size_t max_bytes) {
  root_ = FeedValue();
  if (body.size() > max_bytes) return "response over max_bytes";
  // allocate() sets the depth limit (and sizes the tape for this body).
  if (parser_.allocate(body.size(), max_depth_) != simdjson::SUCCESS) {
    return "cannot allocate the parser for " + std::to_string(body.size()) + " bytes";
  }
  simdjson::dom::element element;
  // parse(std::string) reads in place when the capacity has room for simdjson's padding
  // (a string grown by appending usually has), else copies: the response stays const.
  auto error = parser_.parse(body).get(element);
  if (error == simdjson::NUMBER_ERROR) {
    repaired_.assign(body);
    if (nullUnrepresentableNumbers(repaired_)) {
      error = parser_.parse(repaired_).get(element);
    }
  }
  if (error == simdjson::DEPTH_ERROR) {
    return "invalid JSON: nested deeper than " + std::to_string(max_depth_);
  }
  if (error != simdjson::SUCCESS) {
    return std::string("invalid JSON: ") + simdjson::error_message(error);
  }
  root_ = FeedValue(element);
  return std::nullopt;
}

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
      daysFromCivil(year, static_cast<unsigned>(month), static_cast<unsigned>(day)) * 86400 +
      hour * 3600 + minute * 60 + second - offset;
  if (seconds < 0 || seconds > kMaxUnixSeconds) return std::nullopt;
  return seconds;
}

}  // namespace skinpulse::plugins::support
