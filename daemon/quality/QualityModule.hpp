#pragma once

// QualityModule: the cross-market endpoints (docs/api.md §12): GET /api/v1/sources and
// GET /api/v1/rankings/spread. The rules themselves (freshness, consensus, spreads,
// outliers) are the folder's free functions, used by items/ and ingest/ too. How each
// source's polls went comes from the registry's PollStateSource (the ingest module).

#include "module/Module.hpp"
#include "module/Services.hpp"
#include "quality/PollStateSource.hpp"
#include "quality/QualityApi.hpp"

namespace skinpulse::quality {

class QualityModule final : public module::Module {
 public:
  /// [quality]'s keys are the price policy's (services.price_policy): the module has none
  /// of its own.
  explicit QualityModule(module::Services& services)
      : api_(services.catalog, services.latest, services.price_policy,
             [this] { return polls_ != nullptr ? polls_->pollStates() : PollStates{}; }) {
    api_.setRateBook(services.rates);
  }

  std::string_view name() const override { return "quality"; }
  /// Takes the registry's PollStateSource.
  void attach(module::Services& services) override {
    polls_ = &services.registry.require<PollStateSource>();
  }
  void registerRoutes(http::Router& router) override { api_.registerRoutes(router); }

 private:
  const PollStateSource* polls_ = nullptr;
  QualityApi api_;
};

}  // namespace skinpulse::quality
