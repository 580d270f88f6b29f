#include "access/AccessModule.hpp"

#include "common/Log.hpp"

#include <chrono>

namespace skinpulse::access {
namespace {

std::int64_t steadyMs() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

}  // namespace

AccessModule::AccessModule(module::Services& services, const AccessOptions& options)
    : options_(options) {
  directory_ = std::make_unique<KeyDirectory>(services.database.apiKeys());
  client_budget_ = std::make_unique<ReadBudget>(options.requests_per_minute);
  key_budget_ = std::make_unique<ReadBudget>(options.key_requests_per_minute);
  guard_ = std::make_unique<QuotaGuard>(*client_budget_, *key_budget_, *directory_, nullptr);
  api_ = std::make_unique<KeysApi>(services.database.apiKeys(), *directory_,
                                   options.max_keys_per_user);
  services.registry.provide<QuotaGuard>(*guard_);
}

AccessModule::~AccessModule() = default;

void AccessModule::attach(module::Services& services) {
  // The same client as the auth rate limit and the connection caps (the auth module's
  // trusted proxies); without it, the peer address.
  guard_->setProxies(services.registry.find<http::TrustedProxies>());
}

void AccessModule::start() {
  try {
    directory_->reload();
  } catch (const std::exception& e) {
    // Reads without a key go on; a presented key answers 503 until a reload succeeds.
    log::main().warn("api keys: cannot load the keys yet: {}", e.what());
  }
  next_flush_ms_ = steadyMs() + options_.usage_flush_seconds * 1000LL;
  const std::chrono::milliseconds period{options_.key_cache_seconds * 1000LL};
  task_ =
      std::make_unique<common::PeriodicTask>("api keys", period, period, [this] { maintain(); });
  task_->start();
  metrics_ = telemetry::Registry::global().addCollector(
      [this](std::vector<telemetry::CollectedFamily>& out) { collect(out); });
}

void AccessModule::maintain() {
  directory_->reload();
  if (steadyMs() >= next_flush_ms_) {
    next_flush_ms_ = steadyMs() + options_.usage_flush_seconds * 1000LL;
    directory_->flush();
  }
}

bool AccessModule::stop() {
  metrics_ = {};
  if (task_) task_->stop();
  try {
    directory_->flush();  // what was counted since the last flush is kept
  } catch (const std::exception& e) {
    log::main().warn("api keys: usage not written at stop: {}", e.what());
  }
  return true;
}

void AccessModule::collect(std::vector<telemetry::CollectedFamily>& out) const {
  using telemetry::CollectedFamily;
  CollectedFamily requests{"skinpulse_api_requests_total",
                           "Reads of the public API admitted by the read budget, by API key id "
                           "(\"none\": without a key) since start",
                           telemetry::Type::kCounter,
                           {"key"},
                           {}};
  CollectedFamily limited{"skinpulse_api_rate_limited_total",
                          "Reads of the public API refused with 429 rate_limited, by API key id "
                          "(\"none\": without a key) since start",
                          telemetry::Type::kCounter,
                          {"key"},
                          {}};
  requests.samples.push_back({{"none"}, static_cast<double>(guard_->anonymousRequests())});
  limited.samples.push_back({{"none"}, static_cast<double>(guard_->anonymousLimited())});
  // Only keys used on this daemon since start: one series per key in use, gone with it.
  for (const auto& key : directory_->totals()) {
    if (key.requests == 0 && key.rate_limited == 0) continue;
    requests.samples.push_back({{key.id}, static_cast<double>(key.requests)});
    limited.samples.push_back({{key.id}, static_cast<double>(key.rate_limited)});
  }
  CollectedFamily invalid{"skinpulse_api_invalid_keys_total",
                          "Reads refused with 401 invalid_api_key since start",
                          telemetry::Type::kCounter,
                          {},
                          {{{}, static_cast<double>(guard_->invalidKeys())}}};
  out.push_back(std::move(requests));
  out.push_back(std::move(limited));
  out.push_back(std::move(invalid));
}

}  // namespace skinpulse::access
