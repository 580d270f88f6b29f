#pragma once

// GET /api/v1/sources and GET /api/v1/rankings/spread (docs/api.md §12): which markets
// are fresh and how many items each prices, and the best buy-here-sell-there gaps. Both
// read the catalogue and latest-price snapshots (a pass over every item: on the worker
// pool, not inline); thread-safe and const.

#include "catalog/Catalog.hpp"
#include "currency/RateBook.hpp"
#include "http/Router.hpp"
#include "prices/LatestPrices.hpp"
#include "prices/PricePolicy.hpp"
#include "quality/CrossMarket.hpp"
#include "quality/PollState.hpp"

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace skinpulse::quality {

class QualityApi {
 public:
  /// Asks the scheduler for PollStates.
  using PollStatesFn = std::function<PollStates()>;
  using Clock = std::function<std::int64_t()>;

  /// The sources listed, their freshness and fees, and which prices the spread ranking
  /// trusts are `policy`'s. References outlive the object.
  QualityApi(const catalog::Catalog& catalog, const prices::LatestPrices& latest,
             const prices::PricePolicy& policy, PollStatesFn polls, Clock clock = {});

  void registerRoutes(http::Router& router);

  void sources(http::Request& request, http::Response& response) const;
  void spreads(http::Request& request, http::Response& response) const;

  /// What `currency=` on the spread ranking converts with (docs/api.md §14); without,
  /// only USD. Set before the routes serve; the book must outlive the object.
  void setRateBook(const currency::RateBook& rates) { rates_ = &rates; }

 private:
  const catalog::Catalog& catalog_;
  const prices::LatestPrices& latest_;
  const prices::PricePolicy& policy_;
  FeeTable fees_;
  PollStatesFn polls_;
  Clock clock_;
  const currency::RateBook* rates_ = &currency::RateBook::none();
};

}  // namespace skinpulse::quality
