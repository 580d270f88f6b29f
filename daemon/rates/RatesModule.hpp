#pragma once

// RatesModule: currency rates (docs/api.md §14). Loads the stored rates into the book,
// polls the rates instances (RatesPoller) and serves GET /api/v1/currencies. The book it
// fills is the one every price endpoint and ingest convert with; it outlives the module.

#include "module/Module.hpp"
#include "module/Services.hpp"
#include "rates/CurrenciesApi.hpp"
#include "rates/RatesPoller.hpp"

#include <vector>

namespace skinpulse::rates {

/// The enabled `[rates.NAME]` instances, in configuration order: provided by app/ (from
/// the plugin set) in the registry before the modules are built.
struct RatesInstances {
  std::vector<RatesPoller::Instance> instances;
};

class RatesModule final : public module::Module {
 public:
  /// Polls the registry's RatesInstances into the shared rate book, stored in the database.
  explicit RatesModule(module::Services& services)
      : poller_(services.registry.require<RatesInstances>().instances, services.rates,
                &services.database.rates()),
        api_(services.rates) {
    poller_.loadStored();
  }

  std::string_view name() const override { return "rates"; }
  void registerRoutes(http::Router& router) override { api_.registerRoutes(router); }
  void start() override { poller_.start(); }
  bool stop() override {
    poller_.stop();
    return true;
  }
  const RatesPoller& poller() const { return poller_; }

 private:
  RatesPoller poller_;
  CurrenciesApi api_;
};

}  // namespace skinpulse::rates
