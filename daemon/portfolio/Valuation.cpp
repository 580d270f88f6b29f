#include "portfolio/Valuation.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace skinpulse::portfolio {

namespace {

constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();
constexpr std::int64_t kMin = std::numeric_limits<std::int64_t>::min();

// Overflow goes to the limit on the side the exact result lies.
std::int64_t saturatingMultiply(std::int64_t a, std::int64_t b) {
  std::int64_t out = 0;
  if (!__builtin_mul_overflow(a, b, &out)) return out;
  return (a < 0) == (b < 0) ? kMax : kMin;
}

std::int64_t saturatingAdd(std::int64_t a, std::int64_t b) {
  std::int64_t out = 0;
  if (!__builtin_add_overflow(a, b, &out)) return out;
  return b > 0 ? kMax : kMin;
}

std::int64_t saturatingSubtract(std::int64_t a, std::int64_t b) {
  std::int64_t out = 0;
  if (!__builtin_sub_overflow(a, b, &out)) return out;
  return b < 0 ? kMax : kMin;
}

// Sums of the holdings that have a 24 h change: their value now and 24 h ago.
struct ChangeSums {
  double now = 0;
  double then = 0;
  bool any = false;
};

void addChange(ChangeSums& sums, const ValuedHolding& holding) {
  const auto percent = holding.change_24h_percent;
  // −100 %: the price went to 0, and the value 24 h ago cannot be told from it.
  if (!percent || !std::isfinite(*percent) || *percent <= -100.0) return;
  const double now = static_cast<double>(holding.total_value);
  sums.now += now;
  sums.then += now * 100.0 / (100.0 + *percent);
  sums.any = true;
}

}  // namespace

std::int64_t unitPrice(const prices::LatestPrices& latest, std::int64_t item_id,
                       const std::vector<std::string>& order, std::int64_t now,
                       const prices::PricePolicy& policy) {
  const auto prices = policy.trustedLatest(latest.of(item_id));
  return prices::currentPrice(prices, order, now).price.value_or(0);
}

std::int64_t appliedShare(std::int64_t value, int percent) {
  if (percent <= 0 || value == 0) return 0;
  if (percent >= 100) return value;
  // value × percent can overflow near the int64 limits: split into whole hundreds.
  const std::int64_t hundreds = value / 100;
  const std::int64_t rest = value % 100;
  const std::int64_t exact = rest * percent;  // |exact| < 10,000
  std::int64_t rounded = exact / 100;
  const std::int64_t remainder = exact % 100;
  if (remainder >= 50) ++rounded;
  if (remainder <= -50) --rounded;
  return saturatingAdd(saturatingMultiply(hundreds, percent), rounded);
}

ValuedDeparture valueDeparture(const store::DepartureRecord& departure,
                               const catalog::CatalogSnapshot& catalog,
                               const prices::LatestPrices& latest,
                               const std::vector<std::string>& order, std::int64_t now,
                               const prices::PricePolicy& policy) {
  ValuedDeparture out;
  out.record = departure;
  if (const auto* item = catalog.findById(departure.item_id)) {
    out.market_hash_name = item->record.market_hash_name;
    out.variant = item->record.variant;
  }
  for (const auto& one : departure.applied) {
    ValuedApplied valued{one.kind, one.slot, one.item_id, one.name, std::nullopt};
    if (one.item_id) {
      if (const auto price = unitPrice(latest, *one.item_id, order, now, policy); price > 0) {
        valued.current_price = price;
      }
    }
    out.applied.push_back(std::move(valued));
  }
  out.last_value = saturatingMultiply(departure.last_price, departure.quantity);
  if (departure.sale_price && departure.cost_basis) {
    out.realised_pl = saturatingMultiply(
        saturatingSubtract(*departure.sale_price, *departure.cost_basis), departure.quantity);
  }
  return out;
}

std::optional<std::int64_t> realisedTotal(const std::vector<ValuedDeparture>& departures) {
  std::optional<std::int64_t> total;
  for (const auto& departure : departures) {
    if (departure.realised_pl) total = saturatingAdd(total.value_or(0), *departure.realised_pl);
  }
  return total;
}

Valuation valueHoldings(const std::vector<store::HoldingRecord>& holdings,
                        const catalog::CatalogSnapshot& catalog, const prices::LatestPrices& latest,
                        const std::vector<std::string>& order, std::int64_t now,
                        const prices::PricePolicy& policy, const ChangeLookup& change,
                        int applied_value_percent) {
  const int percent = std::clamp(applied_value_percent, 0, 100);
  Valuation valuation;
  valuation.applied_value_percent = percent;
  valuation.holdings.reserve(holdings.size());
  ChangeSums sums;
  std::int64_t pl_total = 0;
  for (const auto& holding : holdings) {
    ValuedHolding out;
    out.holding_id = holding.holding_id;
    out.account = holding.account;
    out.item_id = holding.item_id;
    if (const auto* item = catalog.findById(holding.item_id)) {
      out.market_hash_name = item->record.market_hash_name;
      out.variant = item->record.variant;
    }
    out.quantity = holding.quantity;
    out.current_price = unitPrice(latest, holding.item_id, order, now, policy);
    std::int64_t applied_unit = 0;
    for (const auto& one : holding.applied) {
      ValuedApplied valued{one.kind, one.slot, one.item_id, one.name, std::nullopt};
      if (one.item_id) {
        if (const auto price = unitPrice(latest, *one.item_id, order, now, policy); price > 0) {
          valued.current_price = price;
          applied_unit = saturatingAdd(applied_unit, price);
        }
      }
      out.applied.push_back(std::move(valued));
    }
    out.applied_value = saturatingMultiply(out.quantity, applied_unit);
    out.total_value = saturatingAdd(saturatingMultiply(out.quantity, out.current_price),
                                    appliedShare(out.applied_value, percent));
    valuation.applied_value = saturatingAdd(valuation.applied_value, out.applied_value);
    out.imported_at = holding.imported_at;
    out.cost_basis = holding.cost_basis;
    out.acquired_at = holding.acquired_at;
    if (out.cost_basis) {
      out.cost_total = saturatingMultiply(*out.cost_basis, out.quantity);
      out.unrealised_pl = saturatingAdd(
          saturatingMultiply(saturatingSubtract(out.current_price, *out.cost_basis), out.quantity),
          appliedShare(out.applied_value, percent));
      pl_total = saturatingAdd(pl_total, *out.unrealised_pl);
      valuation.cost_total = saturatingAdd(valuation.cost_total, *out.cost_total);
      ++valuation.cost_basis_count;
    }
    if (change) out.change_24h_percent = change(holding.item_id);
    addChange(sums, out);
    valuation.total_value = saturatingAdd(valuation.total_value, out.total_value);
    valuation.holdings.push_back(std::move(out));
  }
  if (valuation.cost_basis_count > 0) valuation.unrealised_pl = pl_total;
  if (sums.any && sums.then > 0) {
    valuation.change_24h_percent = (sums.now - sums.then) / sums.then * 100.0;
  }
  std::sort(valuation.holdings.begin(), valuation.holdings.end(),
            [](const ValuedHolding& a, const ValuedHolding& b) {
              if (a.total_value != b.total_value) return a.total_value > b.total_value;
              if (a.item_id != b.item_id) return a.item_id < b.item_id;
              return a.holding_id < b.holding_id;
            });
  return valuation;
}

}  // namespace skinpulse::portfolio
