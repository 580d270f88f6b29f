#include "ingest/PriceParser.hpp"

#include <charconv>
#include <cmath>
#include <string>

namespace skinpulse::ingest {
namespace {

// Beyond this a price is a unit error (cents sent as dollars twice over), not an item.
constexpr std::int64_t kMaxCents = INT64_C(100000000000);  // one billion dollars

bool isDigit(char c) { return c >= '0' && c <= '9'; }

// Rounds the exact decimal `digits` with `decimals` fractional digits to cents.
std::optional<std::int64_t> decimalToCents(const std::string& integer,
                                           const std::string& fraction) {
  if (integer.empty() && fraction.empty()) return std::nullopt;
  std::int64_t cents = 0;
  for (const char c : integer) {
    if (cents > kMaxCents) return std::nullopt;
    cents = cents * 10 + (c - '0');
  }
  for (std::size_t i = 0; i < 2; ++i) {
    cents = cents * 10 + (i < fraction.size() ? fraction[i] - '0' : 0);
  }
  if (fraction.size() > 2 && fraction[2] >= '5') ++cents;  // half away from zero
  if (cents > kMaxCents) return std::nullopt;
  return cents;
}

}  // namespace

std::optional<std::int64_t> parsePriceText(std::string_view text) {
  // Find the single number: digits with separators between them.
  const auto first = text.find_first_of("0123456789");
  if (first == std::string_view::npos) return std::nullopt;
  auto last = text.find_last_of("0123456789");
  // A sign anywhere before the number makes it negative or a range: refuse.
  if (text.substr(0, first).find('-') != std::string_view::npos) return std::nullopt;
  std::string number;  // digits and separators ('.' ',' and grouping spaces)
  for (std::size_t i = first; i <= last;) {
    const char c = text[i];
    if (isDigit(c) || c == '.' || c == ',') {
      number.push_back(c);
      ++i;
    } else if (c == ' ' || c == '\'') {
      ++i;  // grouping: "1 234,56", "1'234.56"
    } else if (static_cast<unsigned char>(c) == 0xC2 && i + 1 <= last &&
               static_cast<unsigned char>(text[i + 1]) == 0xA0) {
      i += 2;  // NBSP grouping
    } else if (static_cast<unsigned char>(c) == 0xE2 && i + 2 <= last &&
               static_cast<unsigned char>(text[i + 1]) == 0x80 &&
               static_cast<unsigned char>(text[i + 2]) == 0xAF) {
      i += 3;  // narrow NBSP grouping
    } else {
      return std::nullopt;  // "4.66 or 5.00", "1-2": not one number
    }
  }
  // Decimal separator: the last '.' or ',' when one or two digits follow it.
  const auto separator = number.find_last_of(".,");
  std::string integer;
  std::string fraction;
  if (separator != std::string::npos && number.size() - separator - 1 <= 2 &&
      number.size() - separator - 1 >= 1) {
    fraction = number.substr(separator + 1);
    number.resize(separator);
  } else if (separator != std::string::npos && number.size() - separator - 1 > 3) {
    // "12.34567": a long fraction, rounded, but only with a single separator.
    if (number.find_first_of(".,") != separator) return std::nullopt;
    fraction = number.substr(separator + 1);
    number.resize(separator);
  }
  // What is left groups thousands: groups after the first must be exactly three digits.
  std::size_t group = std::string::npos;
  for (const char c : number) {
    if (c == '.' || c == ',') {
      if (group == 0) return std::nullopt;
      if (group != std::string::npos && group != 3) return std::nullopt;
      group = 0;
    } else {
      integer.push_back(c);
      if (group != std::string::npos) ++group;
    }
  }
  if (group != std::string::npos && group != 3) return std::nullopt;
  return decimalToCents(integer, fraction);
}

std::optional<std::int64_t> majorToCents(double major) {
  if (!std::isfinite(major) || major < 0 || major > static_cast<double>(kMaxCents) / 100.0) {
    return std::nullopt;
  }
  char buffer[64];
  // Fixed notation, shortest form that reads back as the same double.
  const auto result =
      std::to_chars(buffer, buffer + sizeof buffer, major, std::chars_format::fixed);
  if (result.ec != std::errc()) return std::nullopt;
  const std::string text(buffer, result.ptr);
  const auto dot = text.find('.');
  return decimalToCents(text.substr(0, dot),
                        dot == std::string::npos ? std::string() : text.substr(dot + 1));
}

std::optional<std::int64_t> toCents(const sdk::QuotedPrice& price) {
  std::optional<std::int64_t> cents;
  switch (price.form) {
    case sdk::QuotedPrice::Form::kCents:
      if (price.cents <= kMaxCents) cents = price.cents;
      break;
    case sdk::QuotedPrice::Form::kMajor:
      cents = majorToCents(price.major);
      break;
    case sdk::QuotedPrice::Form::kText:
      cents = parsePriceText(price.text);
      break;
  }
  if (!cents || *cents <= 0) return std::nullopt;
  return cents;
}

}  // namespace skinpulse::ingest
