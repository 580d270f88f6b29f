#pragma once

// RatesModule: currency rates (docs/api.md §14). Loads the stored rates into the book,
// polls the rates instances (RatesPoller) and serves GET /api/v1/currencies. The book it
// fills is the one every price endpoint and ingest convert with; it outlives the module.

#include "module/Module.hpp"
#include "rates/CurrenciesApi.hpp"
#include "rates/RatesPoller.hpp"

#include <vector>

namespace skinpulse::rates {

class RatesModule final : public module::Module {
 public:
  /// `book` and every instance's source must outlive the module; `store` may be null.
  RatesModule(std::vector<RatesPoller::Instance> instances, currency::RateBook& book,
              RateStore* store)
      : poller_(std::move(instances), book, store), api_(book) {
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
