#include "portfolio/ImportService.hpp"

#include "auth/PlatformId.hpp"
#include "catalog/ItemName.hpp"
#include "common/Log.hpp"
#include "net/RequestBudget.hpp"
#include "portfolio/InventoryError.hpp"
#include "store/AppliedText.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <utility>

namespace skinpulse::portfolio {

namespace {

// Unmatched names are logged, but an inventory of junk must not flood the log.
constexpr std::size_t kUnmatchedNamesLogged = 10;

// What the inventory says is applied, each matched to its catalogue item by name.
std::vector<store::AppliedRecord> appliedRecordsOf(const catalog::CatalogSnapshot& snapshot,
                                                   const std::vector<AppliedAsset>& applied) {
  std::vector<store::AppliedRecord> out;
  out.reserve(applied.size());
  for (const auto& one : applied) {
    store::AppliedRecord record{one.kind, one.slot, one.name};
    if (const auto* item = snapshot.findByName(one.name)) record.item_id = item->record.id;
    out.push_back(std::move(record));
  }
  return out;
}

}  // namespace

std::map<std::int64_t, std::int64_t> ImportService::lastPricesOf(const std::string& user_id,
                                                                 const std::string& account) const {
  std::map<std::int64_t, std::int64_t> prices;
  if (!unit_prices_) return prices;
  for (const auto& holding : holdings_.holdingsOf(user_id)) {
    if (holding.account != account || prices.contains(holding.item_id)) continue;
    prices[holding.item_id] = unit_prices_(holding.item_id);
  }
  return prices;
}

ImportService::ImportService(store::UserStore& users, store::HoldingStore& holdings,
                             const catalog::Catalog& catalog, InventorySource& inventory,
                             ImportLock& lock, ImportThrottle& throttle, ImportOptions options,
                             Clock clock, catalog::CatalogImages* images)
    : users_(users),
      holdings_(holdings),
      catalog_(catalog),
      inventory_(inventory),
      lock_(lock),
      throttle_(throttle),
      options_(options),
      clock_(std::move(clock)),
      images_(images) {}

ImportReport ImportService::run(const std::string& user_id,
                                const std::optional<std::string>& account) {
  auto links = users_.gameLinksOf(user_id);
  if (links.empty()) {
    throw ImportRefused(ImportRefused::Reason::kNotLinked,
                        "link a game-platform identity before importing");
  }
  if (account) {
    std::erase_if(links,
                  [&](const store::GameLinkRecord& link) { return link.platform_id != *account; });
    if (links.empty()) {
      throw ImportRefused(ImportRefused::Reason::kUnknownAccount,
                          "you have no linked account with this platform id");
    }
  }
  ImportReport report;
  for (const auto& link : links) {
    AccountImport part{link.platform_id, std::nullopt, nullptr};
    try {
      part.outcome = importAccount(user_id, link);
      report.imported_units += part.outcome->imported_units;
      report.unmatched_units += part.outcome->unmatched_units;
      report.holdings += part.outcome->holdings;
    } catch (...) {
      part.error = std::current_exception();
    }
    report.accounts.push_back(std::move(part));
  }
  const bool any_imported =
      std::any_of(report.accounts.begin(), report.accounts.end(),
                  [](const AccountImport& part) { return part.outcome.has_value(); });
  if (!any_imported) std::rethrow_exception(report.accounts.front().error);
  return report;
}

ImportOutcome ImportService::importAccount(const std::string& user_id,
                                           const store::GameLinkRecord& link) {
  const std::string subject = importSubject(user_id, link.platform_id);
  if (!auth::isIndividualPlatformId(link.platform_id)) {
    throw ImportRefused(ImportRefused::Reason::kInvalidPlatformId,
                        "the linked platform id is not an individual account id");
  }
  if (const auto paused = throttle_.retryAfterSeconds(subject)) {
    throw ImportRefused(ImportRefused::Reason::kCooldown,
                        "3 imports failed within 10 minutes; wait before trying again", *paused);
  }
  const auto attempt = lock_.acquire(subject, options_.lock_hold, options_.cooldown);
  if (!attempt.token) {
    throw ImportRefused(ImportRefused::Reason::kCooldown,
                        "an import ran or is running; retry later", attempt.retry_after_seconds);
  }
  ImportOutcome outcome;
  try {
    // An account whose imports failed lately leaves the budget's reserve to the others:
    // ~20 accounts with failing inventories cannot keep it empty (docs/api.md §6).
    const auto priority = throttle_.failedRecently(subject)
                              ? net::RequestBudget::Priority::kUserAfterFailure
                              : net::RequestBudget::Priority::kUser;
    const Inventory inventory = inventory_.fetch(link.platform_id, priority);
    outcome = write(user_id, link.platform_id, inventory);
  } catch (const net::RequestBudgetExhausted& busy) {
    // The server's budget, not the user's doing: no failure counted, a plain wait.
    lock_.release(subject, *attempt.token);
    throw ImportRefused(ImportRefused::Reason::kCooldown, busy.what(), busy.retryAfterSeconds());
  } catch (const InventoryError&) {
    lock_.release(subject, *attempt.token);
    try {
      throttle_.recordFailure(subject);
    } catch (const std::exception& e) {
      log::main().warn("portfolio: failed import not counted: {}", e.what());
    }
    throw;
  } catch (...) {
    lock_.release(subject, *attempt.token);
    throw;
  }
  try {
    lock_.finish(subject, *attempt.token, options_.cooldown, clock_());
  } catch (const std::exception& e) {
    // The holdings are written, so the import succeeded. The lock stays "running" until
    // it expires (lock_hold, longer than the cooldown): the user still waits.
    log::main().warn("portfolio: import stored but its cooldown could not be set: {}", e.what());
  }
  return outcome;
}

ImportOutcome ImportService::write(const std::string& user_id, const std::string& account,
                                   const Inventory& inventory) {
  ImportOutcome outcome;
  outcome.unmatched_units = inventory.unnamed_units;
  std::vector<store::CatalogStore::ItemImage> images;
  std::set<std::int64_t> pictured;
  std::vector<std::string> unmatched_names;
  std::size_t unmatched_count = 0;
  std::string last_unmatched;
  // (held item, applied_key) → the holding: lots that differ only in a paint index that
  // names no variant fall to the same base item and are summed.
  std::map<std::pair<std::int64_t, std::string>, store::HoldingRecord> by_identity;
  const auto snapshot = catalog_.snapshot();
  for (const auto& [lot, units] : inventory.units_by_lot) {
    const auto* item = snapshot->findByName(lot.market_hash_name);
    if (item == nullptr) {
      outcome.unmatched_units += units;
      if (lot.market_hash_name != last_unmatched) {
        ++unmatched_count;
        if (unmatched_names.size() < kUnmatchedNamesLogged) {
          unmatched_names.push_back(lot.market_hash_name);
        }
        last_unmatched = lot.market_hash_name;
      }
      continue;
    }
    // docs/api.md §18: a lot whose paint index names a variant of this name is held as
    // that variant item; the rest (no paint index, or one the name has no variant for)
    // as the base item.
    std::int64_t held_id = item->record.id;
    if (lot.paint_index) {
      const auto variant = catalog::variantOfPaintIndex(*lot.paint_index, lot.market_hash_name);
      if (const auto* held =
              variant ? snapshot->findVariant(lot.market_hash_name, *variant) : nullptr) {
        held_id = held->record.id;
      }
    }
    std::vector<store::AppliedRecord> applied = appliedRecordsOf(*snapshot, lot.applied);
    const std::string key = store::appliedKeyOf(applied);
    auto [at, fresh] = by_identity.try_emplace({held_id, key});
    if (fresh) {
      at->second.item_id = held_id;
      at->second.applied_key = key;
      at->second.applied = store::canonicalApplied(std::move(applied));
    }
    at->second.quantity += units;
    outcome.imported_units += units;
    if (item->record.image_url.empty() && pictured.insert(item->record.id).second) {
      if (const auto icon = inventory.icon_by_name.find(lot.market_hash_name);
          icon != inventory.icon_by_name.end()) {
        if (std::string url = catalog::economyImageUrl(icon->second);
            catalog::usableImageUrl(url)) {
          images.emplace_back(item->record.id, std::move(url));
        }
      }
    }
  }
  std::vector<store::HoldingRecord> matched;
  matched.reserve(by_identity.size());
  for (auto& [identity, holding] : by_identity) matched.push_back(std::move(holding));
  if (!holdings_.replaceLinkedHoldings(user_id, account, matched, lastPricesOf(user_id, account),
                                       clock_())) {
    // Unlinked while its inventory was being fetched: what was fetched is not written.
    throw ImportRefused(ImportRefused::Reason::kNotLinked,
                        "the account was unlinked while it was being imported");
  }
  outcome.holdings = matched.size();
  if (images_ != nullptr) images_->fill(images, "an inventory import");
  if (outcome.unmatched_units > 0) {
    std::string names;
    for (const auto& name : unmatched_names) names += (names.empty() ? "" : ", ") + name;
    log::main().info("portfolio: import left {} unit(s) unmatched (not in the catalogue: {}{})",
                     outcome.unmatched_units, names.empty() ? "no names" : names,
                     unmatched_count > unmatched_names.size() ? ", ..." : "");
  }
  log::main().info("portfolio: imported {} unit(s) of {} item(s) from {} page(s)",
                   outcome.imported_units, outcome.holdings, inventory.pages);
  return outcome;
}

}  // namespace skinpulse::portfolio
