#pragma once

// AccessModule: the public API's read budgets and users' API keys ([api]; docs/api.md,
// "API keys and read budgets"; docs/adr/0028-api-keys-and-read-budgets.md). Provides its
// QuotaGuard in the registry (the server module runs it before the auth guard), serves
// /api/v1/keys, reloads the key directory and flushes the keys' usage on one background
// task, and reports the counts in /metrics.

#include "access/AccessOptions.hpp"
#include "access/KeyDirectory.hpp"
#include "access/KeysApi.hpp"
#include "access/QuotaGuard.hpp"
#include "access/ReadBudget.hpp"
#include "common/PeriodicTask.hpp"
#include "module/Module.hpp"
#include "module/Services.hpp"
#include "telemetry/Registry.hpp"

#include <memory>

namespace skinpulse::access {

class AccessModule final : public module::Module {
 public:
  AccessModule(module::Services& services, const AccessOptions& options);
  ~AccessModule() override;

  std::string_view name() const override { return "api"; }
  void attach(module::Services& services) override;
  void registerRoutes(http::Router& router) override { api_->registerRoutes(router); }
  void start() override;
  bool stop() override;

 private:
  void maintain();
  void collect(std::vector<telemetry::CollectedFamily>& out) const;

  AccessOptions options_;
  std::unique_ptr<KeyDirectory> directory_;
  std::unique_ptr<ReadBudget> client_budget_;
  std::unique_ptr<ReadBudget> key_budget_;
  std::unique_ptr<QuotaGuard> guard_;
  std::unique_ptr<KeysApi> api_;
  std::unique_ptr<common::PeriodicTask> task_;
  std::int64_t next_flush_ms_ = 0;
  telemetry::Registry::CollectorHandle metrics_;
};

}  // namespace skinpulse::access
