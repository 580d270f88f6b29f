#include "portfolio/CostCsvPlan.hpp"

#include "common/Time.hpp"
#include "currency/Iso4217.hpp"
#include "currency/Money.hpp"
#include "portfolio/CostBody.hpp"
#include "portfolio/CostCsvCells.hpp"

#include <array>
#include <map>

namespace skinpulse::portfolio {
namespace {

__extension__ typedef __int128 CsvWide;  // GCC and Clang have it; ISO C++ does not

constexpr std::int64_t kCsvDay = 86400;

// Where each known column is in the header (nullopt: absent).
struct CostCsvColumns {
  std::optional<std::size_t> name, quantity, cost, currency, acquired_at, item_id, variant;
};

std::string lowerAscii(std::string_view text) {
  std::string out(text);
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return out;
}

CostCsvColumns findCostCsvColumns(const CsvRecord& header) {
  CostCsvColumns columns;
  std::optional<std::size_t> cost_each, cost_basis;
  const std::array<std::pair<std::string_view, std::optional<std::size_t>*>, 8> known{{
      {"market_hash_name", &columns.name},
      {"quantity", &columns.quantity},
      {"cost_each", &cost_each},
      {"cost_basis", &cost_basis},
      {"currency", &columns.currency},
      {"acquired_at", &columns.acquired_at},
      {"item_id", &columns.item_id},
      {"variant", &columns.variant},
  }};
  for (std::size_t i = 0; i < header.fields.size(); ++i) {
    const std::string name = lowerAscii(csvCellText(header.fields[i]));
    for (const auto& [wanted, slot] : known) {
      if (name != wanted) continue;
      if (*slot) throw InvalidCsv(header.line, "the column " + name + " appears twice");
      *slot = i;
    }
  }
  columns.cost = cost_each ? cost_each : cost_basis;  // cost_each wins when both are there
  const auto require = [&](const std::optional<std::size_t>& column, std::string_view what) {
    if (!column) {
      throw InvalidCsv(header.line, "the header has no " + std::string(what) +
                                        " column (market_hash_name, quantity, cost_each, "
                                        "currency, acquired_at are read)");
    }
  };
  require(columns.name, "market_hash_name");
  require(columns.quantity, "quantity");
  require(columns.cost, "cost_each (or cost_basis)");
  return columns;
}

std::string cellAt(const CsvRecord& record, const std::optional<std::size_t>& column) {
  return column ? csvCellText(record.fields[*column]) : std::string();
}

// What the user holds of each item, over every account and applied set.
struct HeldItem {
  std::int64_t quantity = 0;
  std::optional<std::int64_t> cost_basis;
};

class CostCsvMatcher {
 public:
  explicit CostCsvMatcher(const CostCsvContext& context) : context_(context) {
    for (const auto& holding : context.holdings) {
      auto& held = held_[holding.item_id];
      held.quantity += holding.quantity;
      if (!held.cost_basis) held.cost_basis = holding.cost_basis;
    }
  }

  CostCsvRow row(const CsvRecord& record, const CostCsvColumns& columns) const {
    CostCsvRow row;
    row.line = record.line;
    row.market_hash_name = cellAt(record, columns.name);
    const std::string currency = cellAt(record, columns.currency);
    row.currency = currency.empty() ? "USD" : upperAscii(currency);

    const auto* item = findItem(row.market_hash_name, cellAt(record, columns.item_id),
                                cellAt(record, columns.variant));
    if (item == nullptr) {
      return refuse(row, "unknown_item",
                    "no catalogue item has this market_hash_name" +
                        std::string(columns.variant ? " and variant" : ""));
    }
    row.item_id = item->record.id;
    row.quantity = csvQuantity(cellAt(record, columns.quantity));
    const auto exponent = currency::currencyExponent(row.currency);
    const auto rate =
        exponent && row.currency != "USD" ? context_.rates.rateOf(row.currency) : std::nullopt;
    if (exponent) row.cost_each = csvAmount(cellAt(record, columns.cost), *exponent);
    const std::string date = cellAt(record, columns.acquired_at);
    if (!date.empty()) row.acquired_at = csvDate(date);

    if (heldQuantity(item->record.id) == 0) {
      return refuse(row, "not_held", "you hold no " + describe(*item) + "; import first");
    }
    if (!row.quantity) {
      return refuse(row, "invalid_quantity",
                    "quantity must be a whole number from 1 to " + std::to_string(kMaxCsvQuantity));
    }
    if (!exponent || (row.currency != "USD" && !rate)) {
      return refuse(row, "unknown_currency",
                    "currency must be an ISO 4217 code with an exchange rate (GET "
                    "/api/v1/currencies), or empty for USD");
    }
    if (!row.cost_each) {
      return refuse(row, "invalid_cost",
                    "the cost must be a non-negative amount in " + row.currency + " with at most " +
                        std::to_string(*exponent) + " decimals, such as " +
                        (*exponent == 0 ? std::string("1250") : std::string("12.50")));
    }
    row.usd_cents = rate ? currency::toUsdCents(*row.cost_each, *exponent, *rate) : row.cost_each;
    if (!row.usd_cents || *row.usd_cents > kMaxCostBasisCents) {
      return refuse(row, "invalid_cost", "the cost is above what a unit can have cost");
    }
    if (!date.empty() && (!row.acquired_at || *row.acquired_at < kEarliestAcquiredAt ||
                          *row.acquired_at > context_.now + kCsvDay)) {
      row.acquired_at.reset();
      return refuse(row, "invalid_date",
                    "acquired_at must be empty, a date (2026-11-20) or an RFC 3339 time "
                    "(2026-11-20T18:00:00Z) between 2012-01-01 and tomorrow");
    }
    return row;
  }

  std::int64_t heldQuantity(std::int64_t item_id) const {
    const auto held = held_.find(item_id);
    return held == held_.end() ? 0 : held->second.quantity;
  }
  std::optional<std::int64_t> storedCost(std::int64_t item_id) const {
    const auto held = held_.find(item_id);
    return held == held_.end() ? std::nullopt : held->second.cost_basis;
  }

 private:
  static std::string upperAscii(std::string_view text) {
    std::string out(text.substr(0, 16));  // the answer echoes it
    for (char& c : out) {
      if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
    }
    return out;
  }

  static std::string describe(const catalog::CatalogItemView& item) {
    return item.record.variant.empty() ? "item of this name"
                                       : "item of this name and variant " + item.record.variant;
  }

  static CostCsvRow refuse(CostCsvRow row, std::string code, std::string detail) {
    row.code = std::move(code);
    row.detail = std::move(detail);
    row.usd_cents.reset();
    return row;
  }

  // The item_id cell picks the item when it names an item of the row's name; else the
  // variant cell picks a variant of the name; else the base item of the name — or, when
  // the user holds the name only as one variant (a Doppler phase), that variant.
  const catalog::CatalogItemView* findItem(const std::string& name, const std::string& item_id,
                                           const std::string& variant) const {
    const auto& catalogue = context_.catalogue;
    if (name.empty()) return nullptr;
    if (!item_id.empty()) {
      const auto* by_id = findById(item_id);
      if (by_id != nullptr && by_id->record.market_hash_name == name) return by_id;
    }
    if (!variant.empty()) return catalogue.findVariant(name, variant);
    const auto* base = catalogue.findByName(name);
    if (base == nullptr || heldQuantity(base->record.id) > 0) return base;
    const catalog::CatalogItemView* held_variant = nullptr;
    for (const auto* candidate : base->variants) {
      if (heldQuantity(candidate->record.id) == 0) continue;
      if (held_variant != nullptr) return base;  // two phases held: the row must say which
      held_variant = candidate;
    }
    return held_variant != nullptr ? held_variant : base;
  }

  const catalog::CatalogItemView* findById(const std::string& text) const {
    std::int64_t id = 0;
    if (text.empty() || text.size() > 18) return nullptr;
    for (const char c : text) {
      if (c < '0' || c > '9') return nullptr;
      id = id * 10 + (c - '0');
    }
    return context_.catalogue.findById(id);
  }

  const CostCsvContext& context_;
  std::map<std::int64_t, HeldItem> held_;
};

// Sums each item's matched rows; an item whose rows name more units than the user holds
// has every one of its rows refused (no row is more to blame than another).
void combineCostCsvRows(CostCsvPlan& plan, const CostCsvMatcher& matcher) {
  std::map<std::int64_t, CsvWide> units;
  for (const auto& row : plan.rows) {
    if (row.matched()) units[*row.item_id] += *row.quantity;
  }
  for (auto& row : plan.rows) {
    if (!row.matched()) continue;
    const std::int64_t held = matcher.heldQuantity(*row.item_id);
    if (units[*row.item_id] > held) {
      row.code = "quantity_exceeds_holding";
      row.detail = "the rows of this item name " +
                   std::to_string(static_cast<std::int64_t>(units[*row.item_id])) +
                   " units; you hold " + std::to_string(held);
      row.usd_cents.reset();
    }
  }
  std::map<std::int64_t, std::size_t> index;  // item_id → position in plan.items
  std::vector<CsvWide> spent;                 // Σ quantity × USD cents per item
  for (const auto& row : plan.rows) {
    if (!row.matched()) continue;
    auto [at, added] = index.try_emplace(*row.item_id, plan.items.size());
    if (added) {
      CostCsvItem item;
      item.item_id = *row.item_id;
      item.market_hash_name = row.market_hash_name;
      item.previous_cost_basis = matcher.storedCost(*row.item_id);
      plan.items.push_back(std::move(item));
      spent.push_back(0);
    }
    auto& item = plan.items[at->second];
    item.quantity += *row.quantity;
    spent[at->second] += static_cast<CsvWide>(*row.quantity) * *row.usd_cents;
    if (row.acquired_at && (!item.acquired_at || *row.acquired_at < *item.acquired_at)) {
      item.acquired_at = row.acquired_at;
    }
  }
  for (std::size_t i = 0; i < plan.items.size(); ++i) {
    // The mean, rounded half up (every term is non-negative); never above the largest
    // row cost, so it fits.
    const CsvWide quantity = plan.items[i].quantity;
    plan.items[i].cost_basis =
        static_cast<std::int64_t>((2 * spent[i] + quantity) / (2 * quantity));
  }
}

}  // namespace

std::size_t CostCsvPlan::matchedRows() const {
  std::size_t matched = 0;
  for (const auto& row : rows) matched += row.matched() ? 1 : 0;
  return matched;
}

std::vector<store::ItemCost> CostCsvPlan::costs() const {
  std::vector<store::ItemCost> out;
  out.reserve(items.size());
  for (const auto& item : items) out.push_back({item.item_id, item.cost_basis, item.acquired_at});
  return out;
}

CostCsvPlan planCostCsv(const CsvTable& table, const CostCsvContext& context) {
  const CostCsvColumns columns = findCostCsvColumns(table.header);
  const CostCsvMatcher matcher(context);
  CostCsvPlan plan;
  plan.rows.reserve(table.records.size());
  for (const auto& record : table.records) plan.rows.push_back(matcher.row(record, columns));
  combineCostCsvRows(plan, matcher);
  return plan;
}

}  // namespace skinpulse::portfolio
