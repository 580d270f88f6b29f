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

Valuation valueHoldings(const std::vector<store::HoldingRecord>& holdings,
                        const catalog::CatalogSnapshot& catalog, const prices::LatestPrices& latest,
                        const std::vector<std::string>& order, std::int64_t now,
                        const prices::PricePolicy& policy, const ChangeLookup& change) {
  Valuation valuation;
  valuation.holdings.reserve(holdings.size());
  ChangeSums sums;
  std::int64_t pl_total = 0;
  for (const auto& holding : holdings) {
    ValuedHolding out;
    out.item_id = holding.item_id;
    if (const auto* item = catalog.findById(holding.item_id)) {
      out.market_hash_name = item->record.market_hash_name;
      out.variant = item->record.variant;
    }
    out.quantity = holding.quantity;
    out.current_price = unitPrice(latest, holding.item_id, order, now, policy);
    out.total_value = saturatingMultiply(out.quantity, out.current_price);
    out.imported_at = holding.imported_at;
    out.cost_basis = holding.cost_basis;
    out.acquired_at = holding.acquired_at;
    if (out.cost_basis) {
      out.unrealised_pl =
          saturatingMultiply(saturatingSubtract(out.current_price, *out.cost_basis), out.quantity);
      out.cost_total = saturatingMultiply(*out.cost_basis, out.quantity);
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
              return a.item_id < b.item_id;
            });
  return valuation;
}

}  // namespace skinpulse::portfolio
