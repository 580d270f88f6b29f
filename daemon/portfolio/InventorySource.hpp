#pragma once

#include "portfolio/InventoryFetcher.hpp"

namespace skinpulse::portfolio {

/// Where an import reads the inventory from: the platform in the daemon, a fake in tests.
class InventorySource {
 public:
  virtual ~InventorySource() = default;
  /// Every page request takes a token of `priority` from the game platform's budget.
  /// Throws InventoryError, or net::RequestBudgetExhausted when no token is left.
  virtual Inventory fetch(const std::string& platform_id,
                          net::RequestBudget::Priority priority) = 0;
};

/// The platform, through the host HTTP client.
class PlatformInventorySource final : public InventorySource {
 public:
  explicit PlatformInventorySource(InventoryFetcher fetcher) : fetcher_(std::move(fetcher)) {}
  Inventory fetch(const std::string& platform_id, net::RequestBudget::Priority priority) override {
    return fetcher_.fetch(platform_id, priority);
  }

 private:
  InventoryFetcher fetcher_;
};

}  // namespace skinpulse::portfolio
