#include "quality/CrossMarket.hpp"

#include <algorithm>
#include <cmath>

namespace skinpulse::quality {

namespace {

// The spread ranking asks for every item of the catalogue on each request: scratch
// buffers per thread instead of three allocations per item.
void collectTrusted(const std::vector<prices::SourceLatest>& latest,
                    const prices::PricePolicy& policy, std::int64_t now,
                    std::vector<const store::PricePoint*>& prices) {
  prices.clear();
  for (const auto& entry : latest) {
    if (policy.trusts(entry.newest, now)) prices.push_back(&entry.newest);
  }
}

}  // namespace

std::int64_t lowerMedian(std::vector<std::int64_t>& prices) {
  const std::size_t middle = (prices.size() - 1) / 2;
  std::nth_element(prices.begin(), prices.begin() + static_cast<std::ptrdiff_t>(middle),
                   prices.end());
  return prices[middle];
}

Consensus consensus(const std::vector<prices::SourceLatest>& latest,
                    const prices::PricePolicy& policy, std::int64_t now) {
  thread_local std::vector<const store::PricePoint*> trusted;
  thread_local std::vector<std::int64_t> asks;
  thread_local std::vector<std::int64_t> all;
  collectTrusted(latest, policy, now, trusted);
  asks.clear();
  all.clear();
  for (const auto* point : trusted) {
    all.push_back(point->price);
    if (point->kind == sdk::PriceKind::kAsk) asks.push_back(point->price);
  }
  auto& prices = asks.empty() ? all : asks;
  Consensus result;
  result.sources = prices.size();
  if (prices.empty()) return result;
  const auto [low, high] = std::minmax_element(prices.begin(), prices.end());
  if (prices.size() >= 2 && *low > 0) {
    result.spread_percent = static_cast<double>(*high - *low) / static_cast<double>(*low) * 100.0;
  }
  result.price = lowerMedian(prices);
  return result;
}

std::int64_t netOfFee(std::int64_t price, double fee_percent) {
  if (fee_percent <= 0.0) return price;
  return std::llround(static_cast<double>(price) * (100.0 - fee_percent) / 100.0);
}

std::optional<SpreadOpportunity> bestSpread(const std::vector<prices::SourceLatest>& latest,
                                            const prices::PricePolicy& policy, const FeeTable& fees,
                                            std::size_t min_sources, std::int64_t now) {
  thread_local std::vector<const store::PricePoint*> trusted;
  collectTrusted(latest, policy, now, trusted);
  if (trusted.size() < min_sources) return std::nullopt;
  const store::PricePoint* buy = nullptr;
  for (const auto* point : trusted) {
    if (point->kind != sdk::PriceKind::kAsk || point->price <= 0) continue;
    if (buy == nullptr || point->price < buy->price) buy = point;
  }
  if (buy == nullptr) return std::nullopt;
  const store::PricePoint* sell = nullptr;
  std::int64_t sell_net = 0;
  for (const auto* point : trusted) {
    // Buying and selling on one market is no cross-market gap.
    if (point->source == buy->source) continue;
    const auto fee = fees.find(point->source);
    const std::int64_t net = netOfFee(point->price, fee == fees.end() ? 0.0 : fee->second);
    if (sell == nullptr || net > sell_net) {
      sell = point;
      sell_net = net;
    }
  }
  if (sell == nullptr) return std::nullopt;
  SpreadOpportunity gap{buy->source, buy->price, sell->source, sell_net, 0.0};
  gap.spread_percent =
      static_cast<double>(sell_net - buy->price) / static_cast<double>(buy->price) * 100.0;
  return gap;
}

}  // namespace skinpulse::quality
