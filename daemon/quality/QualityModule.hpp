#pragma once

// QualityModule: the cross-market endpoints (docs/api.md §12): GET /api/v1/sources and
// GET /api/v1/rankings/spread. The rules themselves (freshness, consensus, spreads,
// outliers) are the folder's free functions, used by items/ and ingest/ too.

#include "module/Module.hpp"
#include "quality/QualityApi.hpp"

namespace skinpulse::quality {

class QualityModule final : public module::Module {
 public:
  QualityModule(const Catalog& catalog, const LatestPrices& latest,
                const prices::PricePolicy& price_policy, QualityApi::PollStatesFn polls,
                const currency::RateBook& rates)
      : api_(catalog, latest, price_policy, std::move(polls)) {
    api_.setRateBook(rates);
  }

  std::string_view name() const override { return "quality"; }
  void registerRoutes(http::Router& router) override { api_.registerRoutes(router); }

 private:
  QualityApi api_;
};

}  // namespace skinpulse::quality
