#pragma once

#include "store/Records.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace skinpulse {

/// Portfolio holdings and import metadata. Thread-safe.
class HoldingStore {
 public:
  virtual ~HoldingStore() = default;

  /// In ONE transaction: upserts `holdings` (item_id → quantity, imported_at = now),
  /// deletes the user's holdings whose item is not in `holdings`, and records
  /// last_imported_at = now. On error nothing changes and the exception propagates.
  virtual void replaceHoldings(const std::string& user_id,
                               const std::vector<HoldingRecord>& holdings, std::int64_t now) = 0;

  /// The user's holdings ordered by item_id.
  virtual std::vector<HoldingRecord> holdingsOf(const std::string& user_id) = 0;
  virtual std::optional<std::int64_t> lastImportedAt(const std::string& user_id) = 0;
  /// Every item anybody holds, ascending (polling order of rate-limited sources).
  virtual std::vector<std::int64_t> heldItemIds() = 0;
};

}  // namespace skinpulse
