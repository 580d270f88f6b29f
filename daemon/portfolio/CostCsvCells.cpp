#include "portfolio/CostCsvCells.hpp"

#include "common/Time.hpp"

namespace skinpulse::portfolio {
namespace {

constexpr std::int64_t kMaxCsvMinorUnits = 1'000'000'000'000'000;

std::string_view trimCsvBlanks(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
  return text;
}

bool csvDigits(std::string_view text) {
  if (text.empty()) return false;
  for (const char c : text) {
    if (c < '0' || c > '9') return false;
  }
  return true;
}

// Digits (at most 18, so no overflow) as a number.
std::optional<std::int64_t> csvNumber(std::string_view text) {
  if (!csvDigits(text) || text.size() > 18) return std::nullopt;
  std::int64_t out = 0;
  for (const char c : text) out = out * 10 + (c - '0');
  return out;
}

// "+hh:mm" / "-hh:mm" as seconds east of UTC.
std::optional<std::int64_t> csvZoneOffset(std::string_view zone) {
  if (zone.size() != 6 || (zone[0] != '+' && zone[0] != '-') || zone[3] != ':') return std::nullopt;
  const auto hours = csvNumber(zone.substr(1, 2));
  const auto minutes = csvNumber(zone.substr(4, 2));
  if (!hours || !minutes || *hours > 23 || *minutes > 59) return std::nullopt;
  const std::int64_t seconds = *hours * 3600 + *minutes * 60;
  return zone[0] == '-' ? -seconds : seconds;
}

}  // namespace

std::string csvCellText(std::string_view cell) {
  // The guard's "'" comes before the blanks are trimmed: the export quotes the cell
  // whole, so the "'" is its first character.
  if (cell.size() >= 2 && cell.front() == '\'' &&
      std::string_view("=+-@\t\r").find(cell[1]) != std::string_view::npos) {
    cell.remove_prefix(1);
  }
  return std::string(trimCsvBlanks(cell));
}

std::optional<std::int64_t> csvQuantity(std::string_view cell) {
  const auto quantity = csvNumber(trimCsvBlanks(cell));
  if (!quantity || *quantity < 1 || *quantity > kMaxCsvQuantity) return std::nullopt;
  return quantity;
}

std::optional<std::int64_t> csvAmount(std::string_view cell, int exponent) {
  const std::string_view text = trimCsvBlanks(cell);
  const auto point = text.find('.');
  const std::string_view whole = text.substr(0, point);
  const std::string_view fraction =
      point == std::string_view::npos ? std::string_view() : text.substr(point + 1);
  if (!csvDigits(whole) || whole.size() > 16) return std::nullopt;
  if (point != std::string_view::npos &&
      (!csvDigits(fraction) || fraction.size() > static_cast<std::size_t>(exponent))) {
    return std::nullopt;
  }
  std::int64_t out = *csvNumber(whole);
  for (int i = 0; i < exponent; ++i) {
    if (out > kMaxCsvMinorUnits / 10) return std::nullopt;
    const std::size_t k = static_cast<std::size_t>(i);
    out = out * 10 + (k < fraction.size() ? fraction[k] - '0' : 0);
  }
  if (out > kMaxCsvMinorUnits) return std::nullopt;
  return out;
}

std::optional<std::int64_t> csvDate(std::string_view cell) {
  const std::string_view text = trimCsvBlanks(cell);
  if (text.size() == 10) return time::parseIso8601(std::string(text) + "T00:00:00Z");
  if (text.size() < 20) return std::nullopt;
  if (text.back() == 'Z' || text.back() == 'z') return time::parseIso8601(text);
  const auto offset = csvZoneOffset(text.substr(text.size() - 6));
  if (!offset) return std::nullopt;
  const auto local = time::parseIso8601(std::string(text.substr(0, text.size() - 6)) + "Z");
  if (!local) return std::nullopt;
  return *local - *offset;
}

}  // namespace skinpulse::portfolio
