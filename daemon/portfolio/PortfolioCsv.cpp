#include "portfolio/PortfolioCsv.hpp"

#include "common/Time.hpp"

#include <cmath>
#include <cstdio>
#include <optional>

namespace skinpulse::portfolio {

namespace {

constexpr std::string_view kHeader =
    "item_id,market_hash_name,quantity,currency,current_price,total_value,cost_basis,"
    "cost_total,unrealised_pl,unrealised_pl_percent,change_24h_percent,acquired_at,"
    "imported_at,account,variant,applied,applied_value\r\n";

bool startsFormula(std::string_view text) {
  if (text.empty()) return false;
  switch (text.front()) {
    case '=':
    case '+':
    case '-':
    case '@':
    case '\t':
    case '\r':
      return true;
    default:
      return false;
  }
}

bool needsQuotes(std::string_view text) {
  return text.find_first_of("\",\r\n") != std::string_view::npos;
}

std::string amount(const Money& money, const std::optional<std::int64_t>& cents) {
  return cents ? money.major(*cents) : std::string();
}

std::string percent(const std::optional<double>& value) {
  return value ? csvPercent(*value) : std::string();
}

std::string isoTime(const std::optional<std::int64_t>& at) {
  return at ? time::formatIso8601(*at) : std::string();
}

// docs/api.md §23.1: the applied items' names in slot order, stickers then charms.
std::string appliedNames(const std::vector<ValuedApplied>& applied) {
  std::string names;
  for (const auto& one : applied) {
    if (!names.empty()) names += "; ";
    names += one.name;
  }
  return names;
}

void appendRow(std::string& out, std::initializer_list<std::string_view> cells) {
  bool first = true;
  for (const auto cell : cells) {
    if (!first) out += ',';
    out += cell;
    first = false;
  }
  out += "\r\n";
}

}  // namespace

std::string csvText(std::string_view text) {
  const bool formula = startsFormula(text);
  if (!formula && !needsQuotes(text)) return std::string(text);
  std::string out = "\"";
  if (formula) out += '\'';
  for (const char c : text) {
    if (c == '"') out += '"';
    out += c;
  }
  out += '"';
  return out;
}

std::string csvPercent(double value) {
  if (!std::isfinite(value)) return {};
  char text[64];
  std::snprintf(text, sizeof text, "%.2f", value);
  std::string out(text);
  if (out == "-0.00") out = "0.00";
  return out;
}

std::string portfolioCsv(const Valuation& valuation, const Money& money) {
  std::string out(kHeader);
  for (const auto& h : valuation.holdings) {
    std::optional<double> pl_percent;
    if (h.cost_total && *h.cost_total > 0 && h.unrealised_pl) {
      pl_percent = static_cast<double>(*h.unrealised_pl) / static_cast<double>(*h.cost_total) * 100;
    }
    appendRow(out,
              {std::to_string(h.item_id), csvText(h.market_hash_name), std::to_string(h.quantity),
               csvText(money.currency()), money.major(h.current_price), money.major(h.total_value),
               amount(money, h.cost_basis), amount(money, h.cost_total),
               amount(money, h.unrealised_pl), percent(pl_percent), percent(h.change_24h_percent),
               isoTime(h.acquired_at), isoTime(h.imported_at), csvText(h.account),
               csvText(h.variant), csvText(appliedNames(h.applied)), money.major(h.applied_value)});
  }
  return out;
}

}  // namespace skinpulse::portfolio
