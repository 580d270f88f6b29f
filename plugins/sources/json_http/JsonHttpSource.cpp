#include "JsonHttpSource.hpp"

#include "SourceSupport.hpp"

#include <Poco/Exception.h>
#include <Poco/JSON/Array.h>
#include <Poco/JSON/Object.h>
#include <Poco/JSON/Parser.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <exception>
#include <stdexcept>
#include <system_error>
#include <typeinfo>
#include <utility>

namespace skinpulse::plugins::json_http {
namespace {

constexpr std::size_t kMaxDepth = 64;
constexpr std::uint64_t kMaxMaxBytes = 1024ull * 1024ull * 1024ull;
constexpr std::int64_t kMaxUnixSeconds = 253402300799;  // 9999-12-31T23:59:59Z

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return out;
}

bool isTokenChar(char c) {
  if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')) return true;
  return std::string_view("!#$%&'*+-.^_`|~").find(c) != std::string_view::npos;
}

template <typename T>
bool parseInteger(std::string_view text, T& out) {
  const auto* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, out);
  return !text.empty() && ec == std::errc() && ptr == end;
}

// Reads exactly `width` digits at `pos`.
bool digits(std::string_view s, std::size_t& pos, std::size_t width, int& out) {
  if (pos + width > s.size()) return false;
  out = 0;
  for (std::size_t i = 0; i < width; ++i) {
    const char c = s[pos + i];
    if (c < '0' || c > '9') return false;
    out = out * 10 + (c - '0');
  }
  pos += width;
  return true;
}

int daysInMonth(int y, int m) {
  static const int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  const bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
  return m == 2 && leap ? 29 : kDays[m - 1];
}

enum class RowProblem { kNone, kRow, kName, kPrice, kVolume, kTime };

using Poco::Dynamic::Var;

bool isNull(const Var& v) { return v.isEmpty(); }

// Exact integer value of a JSON number (integral doubles included), if it fits int64.
std::optional<std::int64_t> integralValue(const Var& v) {
  const std::type_info& type = v.type();
  if (type == typeid(Poco::Int64)) return v.extract<Poco::Int64>();
  if (type == typeid(Poco::UInt64)) {
    const Poco::UInt64 u = v.extract<Poco::UInt64>();
    if (u > static_cast<Poco::UInt64>(INT64_MAX)) return std::nullopt;
    return static_cast<std::int64_t>(u);
  }
  if (type == typeid(double)) {
    const double d = v.extract<double>();
    if (!std::isfinite(d) || std::floor(d) != d || d < -9.2e18 || d > 9.2e18) return std::nullopt;
    return static_cast<std::int64_t>(d);
  }
  return std::nullopt;
}

bool isNumber(const Var& v) {
  const std::type_info& type = v.type();
  return type == typeid(Poco::Int64) || type == typeid(Poco::UInt64) || type == typeid(double);
}

RowProblem readRow(const Var& row, bool major_units, sdk::Observation& out) {
  if (row.type() != typeid(Poco::JSON::Object::Ptr)) return RowProblem::kRow;
  const auto object = row.extract<Poco::JSON::Object::Ptr>();
  if (object.isNull()) return RowProblem::kRow;

  const Var name = object->get("market_hash_name");
  if (name.type() != typeid(std::string)) return RowProblem::kName;
  out.market_hash_name = name.extract<std::string>();
  if (trim(out.market_hash_name).empty()) return RowProblem::kName;

  const Var price = object->get("price");
  if (price.type() == typeid(std::string)) {
    out.price.form = sdk::QuotedPrice::Form::kText;
    out.price.text = price.extract<std::string>();
    if (trim(out.price.text).empty()) return RowProblem::kPrice;
  } else if (!isNumber(price)) {
    return RowProblem::kPrice;
  } else if (major_units) {
    out.price.form = sdk::QuotedPrice::Form::kMajor;
    if (price.type() == typeid(double)) {
      out.price.major = price.extract<double>();
    } else if (const auto whole = integralValue(price)) {
      out.price.major = static_cast<double>(*whole);
    } else {
      return RowProblem::kPrice;
    }
    if (!std::isfinite(out.price.major)) return RowProblem::kPrice;
  } else {
    const auto cents = integralValue(price);  // fractional cents are refused
    if (!cents) return RowProblem::kPrice;
    out.price.form = sdk::QuotedPrice::Form::kCents;
    out.price.cents = *cents;
  }

  const Var volume = object->get("volume");
  if (isNull(volume)) {
    out.volume = 0;
  } else {
    const auto count = isNumber(volume) ? integralValue(volume) : std::nullopt;
    if (!count || *count < 0) return RowProblem::kVolume;
    out.volume = *count;
  }

  const Var time = object->get("time");
  if (isNull(time)) {
    out.observed_at.reset();
  } else if (time.type() == typeid(std::string)) {
    out.observed_at = parseIsoTime(time.extract<std::string>());
    if (!out.observed_at) return RowProblem::kTime;
  } else if (isNumber(time)) {
    std::optional<std::int64_t> seconds;
    if (time.type() == typeid(double)) {
      const double d = time.extract<double>();
      if (std::isfinite(d) && d >= 0 && d <= static_cast<double>(kMaxUnixSeconds)) {
        seconds = static_cast<std::int64_t>(std::floor(d));
      }
    } else {
      seconds = integralValue(time);
    }
    if (!seconds || *seconds < 0 || *seconds > kMaxUnixSeconds) return RowProblem::kTime;
    out.observed_at = seconds;
  } else {
    return RowProblem::kTime;
  }
  return RowProblem::kNone;
}

std::string summary(const RowCounts& c, std::size_t observations) {
  return std::to_string(c.rows) + " rows, " + std::to_string(observations) + " observations, " +
         std::to_string(c.skipped()) + " malformed rows skipped (not object " +
         std::to_string(c.bad_row) + ", name " + std::to_string(c.bad_name) + ", price " +
         std::to_string(c.bad_price) + ", volume " + std::to_string(c.bad_volume) + ", time " +
         std::to_string(c.bad_time) + ")";
}

}  // namespace

sdk::Fields parseHeaderList(std::string_view text) {
  sdk::Fields out;
  std::size_t index = 0;
  while (!text.empty()) {
    const auto semi = text.find(';');
    const std::string_view part = trim(text.substr(0, semi));
    text = semi == std::string_view::npos ? std::string_view() : text.substr(semi + 1);
    if (part.empty()) continue;
    ++index;
    const auto colon = part.find(':');
    if (colon == std::string_view::npos) {
      throw std::runtime_error("headers: entry " + std::to_string(index) + " is not 'Name: value'");
    }
    const std::string_view name = trim(part.substr(0, colon));
    const std::string_view value = trim(part.substr(colon + 1));
    if (name.empty() || !std::all_of(name.begin(), name.end(), isTokenChar)) {
      throw std::runtime_error("headers: entry " + std::to_string(index) +
                               " has an invalid header name");
    }
    const std::string lowered = lower(name);
    if (lowered == "host" || lowered == "content-length" || lowered == "transfer-encoding" ||
        lowered == "connection") {
      throw std::runtime_error("headers: " + std::string(name) + " is set by the HTTP client");
    }
    for (const char c : value) {
      const auto u = static_cast<unsigned char>(c);
      if ((u < 0x20 && c != '\t') || u == 0x7f) {
        throw std::runtime_error("headers: the value of " + std::string(name) +
                                 " contains a control character");
      }
    }
    out.emplace_back(std::string(name), std::string(value));
  }
  return out;
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

JsonHttpSettings readSettings(const sdk::Config& config) {
  JsonHttpSettings settings;
  settings.url = std::string(trim(config.getString("url", "")));
  if (settings.url.rfind("http://", 0) != 0 && settings.url.rfind("https://", 0) != 0) {
    throw std::runtime_error("url must be an http:// or https:// address");
  }
  const std::string unit = lower(trim(config.getString("price_unit", "cents")));
  if (unit == "major") {
    settings.major_units = true;
  } else if (unit != "cents") {
    throw std::runtime_error("price_unit must be 'cents' or 'major'");
  }
  if (const auto bytes = config.get("max_bytes")) {
    std::uint64_t value = 0;
    if (!parseInteger(trim(*bytes), value) || value == 0 || value > kMaxMaxBytes) {
      throw std::runtime_error("max_bytes must be an integer in [1, 1073741824]");
    }
    settings.max_bytes = static_cast<std::size_t>(value);
  }
  if (const auto headers = config.get("headers")) settings.headers = parseHeaderList(*headers);
  return settings;
}

sdk::FetchResult parseBody(const std::string& body, bool major_units, RowCounts& counts) {
  sdk::FetchResult result;
  Var root;
  try {
    Poco::JSON::Parser parser;
    parser.setDepth(kMaxDepth);
    root = parser.parse(body);
  } catch (const std::exception&) {
    // Poco's messages may quote the body; keep them out of the status.
    result.status = sdk::Status(sdk::Status::Code::kMalformed, "response is not valid JSON");
    return result;
  }
  if (root.type() != typeid(Poco::JSON::Array::Ptr)) {
    result.status =
        sdk::Status(sdk::Status::Code::kMalformed, "response top level is not a JSON array");
    return result;
  }
  const auto array = root.extract<Poco::JSON::Array::Ptr>();
  if (array.isNull()) {
    result.status = sdk::Status(sdk::Status::Code::kMalformed, "response is not a JSON array");
    return result;
  }
  counts.rows = array->size();
  result.observations.reserve(counts.rows);
  for (std::size_t i = 0; i < counts.rows; ++i) {
    sdk::Observation observation;
    switch (readRow(array->get(static_cast<unsigned int>(i)), major_units, observation)) {
      case RowProblem::kNone:
        result.observations.push_back(std::move(observation));
        break;
      case RowProblem::kRow:
        ++counts.bad_row;
        break;
      case RowProblem::kName:
        ++counts.bad_name;
        break;
      case RowProblem::kPrice:
        ++counts.bad_price;
        break;
      case RowProblem::kVolume:
        ++counts.bad_volume;
        break;
      case RowProblem::kTime:
        ++counts.bad_time;
        break;
    }
  }
  if (counts.rows > 0 && result.observations.empty()) {
    result.status = sdk::Status(sdk::Status::Code::kMalformed,
                                "none of the " + std::to_string(counts.rows) + " rows is usable");
  }
  return result;
}

JsonHttpSource::JsonHttpSource(sdk::Host& host)
    : host_(host), settings_(readSettings(host.config())) {}

sdk::FetchResult JsonHttpSource::fetch() {
  try {
    return fetchOnce();
  } catch (const std::exception& e) {
    sdk::FetchResult result;
    result.status = sdk::Status(sdk::Status::Code::kInternal, e.what());
    return result;
  } catch (...) {
    sdk::FetchResult result;
    result.status = sdk::Status(sdk::Status::Code::kInternal, "unknown exception");
    return result;
  }
}

sdk::FetchResult JsonHttpSource::fetchOnce() {
  sdk::HttpRequest request;
  request.method = "GET";
  request.url = settings_.url;
  request.timeout = kTimeout;
  request.max_body_bytes = settings_.max_bytes;
  const bool has_accept =
      std::any_of(settings_.headers.begin(), settings_.headers.end(),
                  [](const auto& field) { return lower(field.first) == "accept"; });
  if (!has_accept) request.headers.emplace_back("Accept", "application/json");
  request.headers.insert(request.headers.end(), settings_.headers.begin(), settings_.headers.end());

  const sdk::HttpResponse response = host_.http().send(request);
  sdk::FetchResult result;
  using Code = sdk::Status::Code;
  switch (response.error) {
    case sdk::HttpResponse::Error::kNone:
      break;
    case sdk::HttpResponse::Error::kTooLarge:
      result.status = sdk::Status(Code::kTooLarge, "response larger than max_bytes (" +
                                                       std::to_string(settings_.max_bytes) + ")");
      return result;
    case sdk::HttpResponse::Error::kTimeout:
      result.status = sdk::Status(Code::kUnavailable, "timed out: " + response.error_message);
      return result;
    default:
      result.status = sdk::Status(Code::kUnavailable, response.error_message);
      return result;
  }
  if (response.status == 429) {
    result.status = sdk::Status(Code::kRateLimited, "HTTP 429 from upstream");
    if (const auto after = response.header("Retry-After")) {
      result.retry_after_seconds =
          support::retryAfterSeconds(*after, host_.clock().nowUnixSeconds());
    }
    return result;
  }
  if (response.status == 401 || response.status == 403) {
    result.status = sdk::Status(Code::kRejected, "HTTP " + std::to_string(response.status) +
                                                     " from upstream (check headers)");
    return result;
  }
  if (response.status < 200 || response.status > 299) {
    result.status = sdk::Status(Code::kUnavailable,
                                "HTTP " + std::to_string(response.status) + " from upstream");
    return result;
  }

  RowCounts counts;
  result = parseBody(response.body, settings_.major_units, counts);
  if (result.status.isOk() || counts.rows > 0) {
    const std::string line = summary(counts, result.observations.size());
    if (counts.skipped() > 0) {
      host_.logger().warn(line);
    } else {
      host_.logger().debug(line);
    }
  }
  return result;
}

}  // namespace skinpulse::plugins::json_http
