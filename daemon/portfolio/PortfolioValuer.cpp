#include "portfolio/PortfolioValuer.hpp"

namespace skinpulse::portfolio {

PortfolioValuer::PortfolioValuer(const catalog::Catalog& catalog,
                                 const prices::LatestPrices& latest,
                                 const prices::PricePolicy& policy, ChangeLookup change,
                                 int applied_value_percent)
    : catalog_(catalog),
      latest_(latest),
      policy_(policy),
      change_(std::move(change)),
      applied_value_percent_(applied_value_percent) {}

std::vector<std::string> PortfolioValuer::order() const {
  return policy_.referenceOrder(latest_.sourceNames());
}

Valuation PortfolioValuer::value(const std::vector<store::HoldingRecord>& holdings,
                                 std::int64_t now, std::optional<int> applied_value_percent) const {
  return valueHoldings(holdings, *catalog_.snapshot(), latest_, order(), now, policy_, change_,
                       applied_value_percent.value_or(applied_value_percent_));
}

std::vector<ValuedDeparture> PortfolioValuer::departures(
    const std::vector<store::DepartureRecord>& departures, std::int64_t now) const {
  const auto sources = order();
  const auto catalog = catalog_.snapshot();
  std::vector<ValuedDeparture> out;
  out.reserve(departures.size());
  for (const auto& departure : departures) {
    out.push_back(valueDeparture(departure, *catalog, latest_, sources, now, policy_));
  }
  return out;
}

std::vector<std::int64_t> PortfolioValuer::unitPrices(const std::vector<std::int64_t>& item_ids,
                                                      std::int64_t now) const {
  const auto sources = order();
  std::vector<std::int64_t> prices;
  prices.reserve(item_ids.size());
  for (const auto id : item_ids) {
    prices.push_back(unitPrice(latest_, id, sources, now, policy_));
  }
  return prices;
}

PortfolioValuer::PriceList PortfolioValuer::pricedItems(std::int64_t now) const {
  const auto sources = order();
  const auto catalog = catalog_.snapshot();
  PriceList list;
  for (const auto& item : catalog->items()) {
    const auto id = item.record.id;
    const auto price = unitPrice(latest_, id, sources, now, policy_);
    if (price == 0) continue;
    list.item_ids.push_back(id);
    list.prices.push_back(price);
  }
  return list;
}

}  // namespace skinpulse::portfolio
