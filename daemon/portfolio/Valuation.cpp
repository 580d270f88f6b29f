#include "portfolio/Valuation.hpp"

#include <algorithm>
#include <limits>

namespace skinpulse::portfolio {

namespace {

constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();

std::int64_t saturatingMultiply(std::int64_t a, std::int64_t b) {
  std::int64_t out = 0;
  return __builtin_mul_overflow(a, b, &out) ? kMax : out;
}

std::int64_t saturatingAdd(std::int64_t a, std::int64_t b) {
  std::int64_t out = 0;
  return __builtin_add_overflow(a, b, &out) ? kMax : out;
}

}  // namespace

Valuation valueHoldings(const std::vector<HoldingRecord>& holdings, const CatalogSnapshot& catalog,
                        const LatestPrices& latest, const std::vector<std::string>& order,
                        std::int64_t now, bool exclude_outliers) {
  Valuation valuation;
  valuation.holdings.reserve(holdings.size());
  for (const auto& holding : holdings) {
    ValuedHolding out;
    out.item_id = holding.item_id;
    if (const auto* item = catalog.findById(holding.item_id)) {
      out.market_hash_name = item->record.market_hash_name;
    }
    out.quantity = holding.quantity;
    auto prices = latest.of(holding.item_id);
    if (exclude_outliers) prices = withoutOutliers(std::move(prices));
    out.current_price = currentPrice(prices, order, now).price.value_or(0);
    out.total_value = saturatingMultiply(out.quantity, out.current_price);
    out.imported_at = holding.imported_at;
    valuation.total_value = saturatingAdd(valuation.total_value, out.total_value);
    valuation.holdings.push_back(std::move(out));
  }
  std::sort(valuation.holdings.begin(), valuation.holdings.end(),
            [](const ValuedHolding& a, const ValuedHolding& b) {
              if (a.total_value != b.total_value) return a.total_value > b.total_value;
              return a.item_id < b.item_id;
            });
  return valuation;
}

}  // namespace skinpulse::portfolio
