#include "ResponseNonce.hpp"

#include <algorithm>

namespace skinpulse::plugins::openid2 {
namespace {

std::optional<int> digits(std::string_view text, std::size_t at, std::size_t count) {
  int value = 0;
  for (std::size_t i = at; i < at + count; ++i) {
    if (text[i] < '0' || text[i] > '9') return std::nullopt;
    value = value * 10 + (text[i] - '0');
  }
  return value;
}

// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's days_from_civil).
std::int64_t daysFromCivil(int year, int month, int day) {
  year -= month <= 2 ? 1 : 0;
  const int era = (year >= 0 ? year : year - 399) / 400;
  const int yoe = year - era * 400;
  const int doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1;
  const int doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return static_cast<std::int64_t>(era) * 146097 + doe - 719468;
}

int daysInMonth(int year, int month) {
  static constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  const bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
  return month == 2 && leap ? 29 : kDays[month - 1];
}

}  // namespace

std::optional<std::int64_t> nonceTime(std::string_view nonce) {
  constexpr std::size_t kStampBytes = 20;  // YYYY-MM-DDTHH:MM:SSZ
  if (nonce.size() < kStampBytes || nonce.size() > kMaxNonceBytes) return std::nullopt;
  if (!std::all_of(nonce.begin(), nonce.end(), [](char c) { return c > 0x20 && c < 0x7F; })) {
    return std::nullopt;
  }
  if (nonce[4] != '-' || nonce[7] != '-' || nonce[10] != 'T' || nonce[13] != ':' ||
      nonce[16] != ':' || nonce[19] != 'Z') {
    return std::nullopt;
  }
  const auto year = digits(nonce, 0, 4);
  const auto month = digits(nonce, 5, 2);
  const auto day = digits(nonce, 8, 2);
  const auto hour = digits(nonce, 11, 2);
  const auto minute = digits(nonce, 14, 2);
  const auto second = digits(nonce, 17, 2);
  if (!year || !month || !day || !hour || !minute || !second) return std::nullopt;
  if (*month < 1 || *month > 12 || *day < 1 || *day > daysInMonth(*year, *month) || *hour > 23 ||
      *minute > 59 || *second > 60) {
    return std::nullopt;
  }
  return daysFromCivil(*year, *month, *day) * 86400 + *hour * 3600 + *minute * 60 + *second;
}

bool isFreshNonce(std::string_view nonce, std::int64_t now_seconds) {
  const auto time = nonceTime(nonce);
  return time && *time >= now_seconds - kMaxAgeSeconds && *time <= now_seconds + kMaxFutureSeconds;
}

}  // namespace skinpulse::plugins::openid2
