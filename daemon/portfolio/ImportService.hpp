#pragma once

// ImportService: POST /api/v1/portfolio/import after the session and CSRF checks, in the
// order of docs/api.md §6 and §23.2: a linked gameid (and, when one account is asked
// for, that it is one of the user's) → then for each account asked for (one, or every
// linked account, oldest link first), on its own: valid platform id → no pause after
// repeated failures (ImportThrottle, per account) → cooldown lock (shared store, fail
// closed, per account) → every inventory page, each within the game platform's request
// budget shared by everyone → match by market_hash_name → one transaction for that
// account (upsert, delete what left, last_imported_at) → its cooldown. Any failure of an
// account after its lock releases that lock and writes nothing for it; a failure of the
// platform also counts towards that account's pause. The other accounts go on.

#include "catalog/Catalog.hpp"
#include "catalog/CatalogImages.hpp"
#include "portfolio/ImportLock.hpp"
#include "portfolio/ImportThrottle.hpp"
#include "portfolio/InventorySource.hpp"
#include "store/HoldingStore.hpp"
#include "store/UserStore.hpp"

#include <chrono>
#include <cstdint>
#include <exception>
#include <functional>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace skinpulse::portfolio {

/// A precondition of the import does not hold; nothing was fetched or written.
class ImportRefused : public std::runtime_error {
 public:
  enum class Reason {
    kNotLinked,          ///< 409 gameid_not_linked
    kInvalidPlatformId,  ///< 400 invalid_platform_id
    kCooldown,           ///< 429 import_cooldown
    kUnknownAccount,     ///< 404 not_found: ?account= is not one of the user's links
  };
  ImportRefused(Reason reason, const std::string& message, std::int64_t retry_after = 0)
      : std::runtime_error(message), reason_(reason), retry_after_(retry_after) {}
  Reason reason() const { return reason_; }
  /// Seconds, for kCooldown.
  std::int64_t retryAfter() const { return retry_after_; }

 private:
  Reason reason_;
  std::int64_t retry_after_;
};

struct ImportOptions {
  std::chrono::seconds cooldown{600};  ///< IMPORT_COOLDOWN_SECONDS
  /// How long the lock may be held: at least the slowest complete fetch (pages × timeout).
  std::chrono::seconds lock_hold{1060};
};

/// What the import of one account wrote.
struct ImportOutcome {
  std::int64_t imported_units = 0;   ///< matched units, the `imported_assets` of the answer
  std::int64_t unmatched_units = 0;  ///< units whose name is not in the catalogue (or absent)
  std::size_t holdings = 0;          ///< distinct items now held
};

/// One account's part of an import: its outcome, or what refused or failed it (the
/// exception a one-account import throws: ImportRefused, InventoryError,
/// state::StoreUnavailable, a store error).
struct AccountImport {
  std::string account;  ///< the platform id
  std::optional<ImportOutcome> outcome;
  std::exception_ptr error;
};

/// What run() did: the sums over the accounts that imported, and each account tried.
struct ImportReport {
  std::int64_t imported_units = 0;
  std::int64_t unmatched_units = 0;
  std::size_t holdings = 0;
  std::vector<AccountImport> accounts;  ///< in link order, oldest first
};

class ImportService {
 public:
  using Clock = std::function<std::int64_t()>;  ///< Unix seconds

  ImportService(store::UserStore& users, store::HoldingStore& holdings,
                const catalog::Catalog& catalog, InventorySource& inventory, ImportLock& lock,
                ImportThrottle& throttle, ImportOptions options, Clock clock,
                catalog::CatalogImages* images = nullptr);

  /// Imports the inventory of `account` (a platform id the user linked), or of every
  /// linked account without one, each on its own (see above). Throws ImportRefused
  /// kNotLinked without a link, kUnknownAccount when `account` is not the user's. When
  /// every account tried failed, throws the first one's error (so a one-account user
  /// sees what they always saw); otherwise the report carries each account's outcome or
  /// error. A failed account's holdings and cooldown are as they were.
  ImportReport run(const std::string& user_id,
                   const std::optional<std::string>& account = std::nullopt);

  /// Writes a fetched `inventory` as `account`'s holdings of the user (docs/api.md §23):
  /// each lot matched by market_hash_name (the variant its paint index tells, §18), its
  /// applied stickers and charms matched to catalogue items by name (kept by name when
  /// the catalogue has none), lots of one (item, applied set) summed; then one
  /// transaction replaces the account's holdings, writing departures of what left at
  /// the unit prices of setUnitPrices(). Other accounts are untouched. No lock, no
  /// throttle: run() (or whoever calls) holds them.
  ImportOutcome write(const std::string& user_id, const std::string& account,
                      const Inventory& inventory);

  /// Cents per unit of an item now (PortfolioValuer's), for the last_price of the units
  /// an import finds gone; without it departures record 0.
  using UnitPrices = std::function<std::int64_t(std::int64_t item_id)>;
  void setUnitPrices(UnitPrices prices) { unit_prices_ = std::move(prices); }

 private:
  /// Unit prices of the items `account` holds now: the last_price of what may leave.
  std::map<std::int64_t, std::int64_t> lastPricesOf(const std::string& user_id,
                                                    const std::string& account) const;
  /// One account: a matched item without a picture gets the one of its inventory
  /// description (`icon_url`), after the holdings are written. Throws ImportRefused,
  /// InventoryError, state::StoreUnavailable (the lock could not be taken or set), or the
  /// store's exception when the transaction fails.
  ImportOutcome importAccount(const std::string& user_id, const store::GameLinkRecord& link);

  store::UserStore& users_;
  store::HoldingStore& holdings_;
  const catalog::Catalog& catalog_;
  InventorySource& inventory_;
  ImportLock& lock_;
  ImportThrottle& throttle_;
  ImportOptions options_;
  Clock clock_;
  catalog::CatalogImages*
      images_;  ///< fills pictures from the inventory's descriptions; may be null
  UnitPrices unit_prices_;
};

}  // namespace skinpulse::portfolio
