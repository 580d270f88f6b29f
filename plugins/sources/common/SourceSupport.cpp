#include "SourceSupport.hpp"

#include <algorithm>
#include <charconv>
#include <stdexcept>

namespace skinpulse::plugins::support {
namespace {

std::string_view trim(std::string_view text) {
  const auto first = text.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos) return {};
  return text.substr(first, text.find_last_not_of(" \t\r\n") - first + 1);
}

// The IMF-fixdate form every HTTP/1.1 server sends: "Sun, 06 Nov 1994 08:49:37 GMT".
// Strict: a real calendar date, GMT only.
std::optional<std::int64_t> parseHttpDate(std::string_view v) {
  static constexpr const char* kMonths[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                            "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
  if (v.size() != 29 || v[3] != ',' || v[4] != ' ' || v[7] != ' ' || v[11] != ' ' || v[16] != ' ' ||
      v[19] != ':' || v[22] != ':' || v.substr(25) != " GMT") {
    return std::nullopt;
  }
  int month = 0;
  while (month < 12 && v.substr(8, 3) != kMonths[month]) ++month;
  int day = 0, year = 0, hour = 0, minute = 0, second = 0;
  if (month == 12 || !digitsAt(v, 5, 2, day) || !digitsAt(v, 12, 4, year) ||
      !digitsAt(v, 17, 2, hour) || !digitsAt(v, 20, 2, minute) || !digitsAt(v, 23, 2, second)) {
    return std::nullopt;
  }
  static constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  const bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
  const int monthDays = kDays[month] + (month == 1 && leap ? 1 : 0);
  if (day < 1 || day > monthDays || hour > 23 || minute > 59 || second > 60) return std::nullopt;
  return daysFromCivil(year, static_cast<unsigned>(month + 1), static_cast<unsigned>(day)) * 86400 +
         hour * 3600 + minute * 60 + second;
}

}  // namespace

bool digitsAt(std::string_view text, std::size_t pos, std::size_t count, int& out) {
  if (pos + count > text.size()) return false;
  out = 0;
  for (std::size_t i = pos; i < pos + count; ++i) {
    if (text[i] < '0' || text[i] > '9') return false;
    out = out * 10 + (text[i] - '0');
  }
  return true;
}

std::int64_t daysFromCivil(std::int64_t y, unsigned m, unsigned d) {
  y -= m <= 2 ? 1 : 0;
  const std::int64_t era = (y >= 0 ? y : y - 399) / 400;
  const auto yoe = static_cast<unsigned>(y - era * 400);
  const unsigned doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
  const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + static_cast<std::int64_t>(doe) - 719468;
}

std::int64_t positiveKey(const sdk::Config& config, std::string_view key, std::int64_t fallback,
                         std::int64_t maximum) {
  const auto text = config.get(key);
  if (!text) return fallback;
  std::int64_t value = 0;
  const char* end = text->data() + text->size();
  const auto [ptr, ec] = std::from_chars(text->data(), end, value);
  if (ec != std::errc() || ptr != end || value < 1 || value > maximum) {
    throw std::invalid_argument(std::string(key) + ": expected an integer between 1 and " +
                                std::to_string(maximum) + ", got \"" + *text + "\"");
  }
  return value;
}

std::string baseUrl(const sdk::Config& config, std::string_view example) {
  std::string url = config.getString("url", "");
  if (url.rfind("http://", 0) != 0 && url.rfind("https://", 0) != 0) {
    throw std::invalid_argument("url: must be an http:// or https:// address, e.g. " +
                                std::string(example));
  }
  while (!url.empty() && url.back() == '/') url.pop_back();
  return url;
}

std::optional<std::int64_t> retryAfterSeconds(std::string_view value, std::int64_t now) {
  const std::string text(trim(value));
  if (text.empty()) return std::nullopt;
  std::int64_t seconds = 0;
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, seconds);
  if (ptr == end && (ec == std::errc() || ec == std::errc::result_out_of_range)) {
    if (ec != std::errc()) return kMaxRetryAfterSeconds;  // absurdly many digits
    if (seconds < 0) return std::nullopt;
    return std::min(seconds, kMaxRetryAfterSeconds);
  }
  const auto at = parseHttpDate(text);
  if (!at) return std::nullopt;
  return std::clamp<std::int64_t>(*at - now, 0, kMaxRetryAfterSeconds);
}

std::optional<sdk::FetchResult> failureOf(const sdk::HttpResponse& response, std::int64_t now,
                                          std::string_view auth_hint) {
  using sdk::Status;
  sdk::FetchResult result;
  switch (response.error) {
    case sdk::HttpResponse::Error::kNone:
      break;
    case sdk::HttpResponse::Error::kTooLarge:
      result.status = Status(Status::Code::kTooLarge, "response over max_bytes");
      return result;
    default:
      result.status =
          Status(Status::Code::kUnavailable, "request failed: " + response.error_message);
      return result;
  }
  if (response.status >= 200 && response.status < 300) return std::nullopt;
  std::string what = "HTTP " + std::to_string(response.status);
  if (response.status == 429) {
    result.status = Status(Status::Code::kRateLimited, what);
    if (const auto after = response.header("Retry-After")) {
      result.retry_after_seconds = retryAfterSeconds(*after, now);
    }
  } else if (response.status >= 400 && response.status < 500) {
    if ((response.status == 401 || response.status == 403) && !auth_hint.empty()) {
      what += " (" + std::string(auth_hint) + ")";
    }
    result.status = Status(Status::Code::kRejected, what);
  } else {
    result.status = Status(Status::Code::kUnavailable, what);
  }
  return result;
}

void addSkip(sdk::SkipCounts& skipped, std::string_view reason, std::int64_t n) {
  if (n <= 0) return;
  for (auto& entry : skipped) {
    if (entry.first == reason) {
      entry.second += n;
      return;
    }
  }
  skipped.emplace_back(std::string(reason), n);
}

void addPart(sdk::PollReport& into, sdk::PollReport part, std::string_view part_name) {
  into.rows_read += part.rows_read;
  for (const auto& [reason, n] : part.skipped) addSkip(into.skipped, reason, n);
  if (part.status.isOk()) {
    into.quotes.reserve(into.quotes.size() + part.quotes.size());
    for (auto& quote : part.quotes) into.quotes.push_back(std::move(quote));
    return;
  }
  if (part.retry_after_seconds) {
    into.retry_after_seconds =
        std::max(into.retry_after_seconds.value_or(0), *part.retry_after_seconds);
  }
  into.failed_parts.push_back({std::string(part_name), std::move(part.status)});
}

std::optional<std::int64_t> parseRfc3339(std::string_view text) {
  int year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0;
  if (!digitsAt(text, 0, 4, year) || text.size() < 20 || text[4] != '-' ||
      !digitsAt(text, 5, 2, month) || text[7] != '-' || !digitsAt(text, 8, 2, day) ||
      (text[10] != 'T' && text[10] != 't' && text[10] != ' ') || !digitsAt(text, 11, 2, hour) ||
      text[13] != ':' || !digitsAt(text, 14, 2, minute) || text[16] != ':' ||
      !digitsAt(text, 17, 2, second)) {
    return std::nullopt;
  }
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 60) {
    return std::nullopt;
  }
  std::size_t pos = 19;
  if (pos < text.size() && text[pos] == '.') {
    ++pos;
    const std::size_t digits_start = pos;
    while (pos < text.size() && text[pos] >= '0' && text[pos] <= '9') ++pos;
    if (pos == digits_start) return std::nullopt;
  }
  std::int64_t offset = 0;
  if (pos < text.size() && (text[pos] == 'Z' || text[pos] == 'z')) {
    ++pos;
  } else if (pos < text.size() && (text[pos] == '+' || text[pos] == '-')) {
    int oh = 0, om = 0;
    if (!digitsAt(text, pos + 1, 2, oh) || pos + 3 >= text.size() || text[pos + 3] != ':' ||
        !digitsAt(text, pos + 4, 2, om) || oh > 23 || om > 59) {
      return std::nullopt;
    }
    offset = (oh * 3600 + om * 60) * (text[pos] == '+' ? 1 : -1);
    pos += 6;
  } else {
    return std::nullopt;
  }
  if (pos != text.size()) return std::nullopt;
  const std::int64_t days =
      daysFromCivil(year, static_cast<unsigned>(month), static_cast<unsigned>(day));
  return days * 86400 + hour * 3600 + minute * 60 + std::min(second, 59) - offset;
}

}  // namespace skinpulse::plugins::support
