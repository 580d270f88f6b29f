#include "portfolio/ImportService.hpp"

#include "auth/PlatformId.hpp"
#include "catalog/ItemName.hpp"
#include "common/Log.hpp"
#include "net/RequestBudget.hpp"
#include "portfolio/InventoryError.hpp"

#include <algorithm>
#include <map>

namespace skinpulse::portfolio {

namespace {

// Unmatched names are logged, but an inventory of junk must not flood the log.
constexpr std::size_t kUnmatchedNamesLogged = 10;

}  // namespace

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
    // TODO(lead, merge h1): write(user_id, link.platform_id, inventory) once h1's write lands.
    outcome = write(user_id, inventory);
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

ImportOutcome ImportService::write(const std::string& user_id, const Inventory& inventory) {
  ImportOutcome outcome;
  outcome.unmatched_units = inventory.unnamed_units;
  std::vector<store::HoldingRecord> matched;
  std::vector<store::CatalogStore::ItemImage> images;
  std::vector<std::string> unmatched_names;
  std::size_t unmatched_count = 0;
  const auto snapshot = catalog_.snapshot();
  for (const auto& [name, units] : inventory.units_by_name) {
    if (const auto* item = snapshot->findByName(name)) {
      // docs/api.md §18: units whose paint index names a variant of this name are held as
      // that variant item; the rest (no paint index, or one the name has no variant for)
      // as the base item.
      std::int64_t base_units = units;
      if (const auto told = inventory.units_by_paint_index.find(name);
          told != inventory.units_by_paint_index.end()) {
        std::map<std::int64_t, std::int64_t> by_variant_item;
        for (const auto& [paint_index, count] : told->second) {
          const auto variant = catalog::variantOfPaintIndex(paint_index, name);
          const auto* held = variant ? snapshot->findVariant(name, *variant) : nullptr;
          if (held == nullptr) continue;
          by_variant_item[held->record.id] += count;
          base_units -= count;
        }
        for (const auto& [id, count] : by_variant_item) {
          matched.push_back(store::HoldingRecord{id, count, 0});
        }
      }
      if (base_units > 0) matched.push_back(store::HoldingRecord{item->record.id, base_units, 0});
      outcome.imported_units += units;
      if (item->record.image_url.empty()) {
        if (const auto icon = inventory.icon_by_name.find(name);
            icon != inventory.icon_by_name.end()) {
          if (std::string url = catalog::economyImageUrl(icon->second);
              catalog::usableImageUrl(url)) {
            images.emplace_back(item->record.id, std::move(url));
          }
        }
      }
    } else {
      outcome.unmatched_units += units;
      ++unmatched_count;
      if (unmatched_names.size() < kUnmatchedNamesLogged) unmatched_names.push_back(name);
    }
  }
  holdings_.replaceHoldings(user_id, matched, clock_());
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
