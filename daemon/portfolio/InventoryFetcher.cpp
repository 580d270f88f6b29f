#include "portfolio/InventoryFetcher.hpp"

#include "portfolio/InventoryError.hpp"
#include "portfolio/InventoryPage.hpp"

#include <algorithm>
#include <tuple>
#include <unordered_set>

namespace skinpulse::portfolio {

namespace {

using Kind = InventoryError::Kind;
using HttpError = sdk::HttpResponse::Error;

std::string withoutTrailingSlash(std::string url) {
  while (!url.empty() && url.back() == '/') url.pop_back();
  return url;
}

/// docs/api.md §2: 403 private, 401 profile not set up, everything else upstream.
[[noreturn]] void throwForStatus(int status) {
  const std::string answered = "inventory: the platform answered " + std::to_string(status);
  if (status == 403) throw InventoryError(Kind::kPrivate, answered + " (private inventory)");
  if (status == 401) throw InventoryError(Kind::kUnavailable, answered + " (profile not set up)");
  throw InventoryError(Kind::kUpstream, answered);
}

[[noreturn]] void throwForTransport(const sdk::HttpResponse& response) {
  const Kind kind = response.error == HttpError::kTooLarge ? Kind::kTooLarge : Kind::kUpstream;
  throw InventoryError(kind, "inventory: " + response.error_message);
}

// A lot's applied list in a total order (AppliedAsset has only ==): kind, slot, name.
bool appliedLess(const std::vector<AppliedAsset>& a, const std::vector<AppliedAsset>& b) {
  return std::lexicographical_compare(
      a.begin(), a.end(), b.begin(), b.end(), [](const AppliedAsset& x, const AppliedAsset& y) {
        return std::tie(x.kind, x.slot, x.name) < std::tie(y.kind, y.slot, y.name);
      });
}

}  // namespace

bool InventoryLot::operator<(const InventoryLot& other) const {
  if (market_hash_name != other.market_hash_name) return market_hash_name < other.market_hash_name;
  if (paint_index != other.paint_index) return paint_index < other.paint_index;
  return appliedLess(applied, other.applied);
}

void Inventory::add(InventoryLot lot, std::int64_t units) { units_by_lot[std::move(lot)] += units; }

std::int64_t Inventory::unitsOf(const std::string& market_hash_name) const {
  std::int64_t units = 0;
  for (auto at = units_by_lot.lower_bound(InventoryLot{market_hash_name});
       at != units_by_lot.end() && at->first.market_hash_name == market_hash_name; ++at) {
    units += at->second;
  }
  return units;
}

InventoryFetcher::InventoryFetcher(sdk::HttpClient& http, InventoryFetchOptions options,
                                   net::RequestBudget* budget)
    : http_(http), options_(std::move(options)), budget_(budget) {
  options_.base_url = withoutTrailingSlash(options_.base_url);
}

std::string InventoryFetcher::pageUrl(const std::string& platform_id,
                                      const std::string& start_asset_id) const {
  std::string url = options_.base_url + "/" + platform_id +
                    "/730/2?l=english&count=" + std::to_string(options_.page_size);
  if (!start_asset_id.empty()) url += "&start_assetid=" + start_asset_id;  // digits only
  return url;
}

Inventory InventoryFetcher::fetch(const std::string& platform_id,
                                  net::RequestBudget::Priority priority) const {
  Inventory inventory;
  std::unordered_set<std::string> seen;
  std::string start;
  for (;;) {
    if (inventory.pages == options_.max_pages) {
      throw InventoryError(Kind::kTooLarge,
                           "inventory: more than " + std::to_string(options_.max_pages) + " pages");
    }
    if (budget_ != nullptr) {
      const auto admission = budget_->tryAcquire(priority);
      if (!admission.granted) {
        throw net::RequestBudgetExhausted(
            "this server's game-platform request budget is used up; retry shortly",
            (admission.retry_after.count() + 999) / 1000);
      }
    }
    sdk::HttpRequest request;
    request.url = pageUrl(platform_id, start);
    request.headers.emplace_back("Accept", "application/json");
    request.timeout = options_.page_timeout;
    request.max_body_bytes = options_.max_page_bytes;
    const sdk::HttpResponse response = http_.send(request);
    if (response.error != HttpError::kNone) throwForTransport(response);
    if (response.status != 200) throwForStatus(response.status);
    InventoryPage page = parseInventoryPage(response.body);
    ++inventory.pages;

    for (auto& asset : page.assets) {
      if (!seen.insert(asset.asset_id).second) continue;
      ++inventory.assets;
      if (asset.market_hash_name) {
        if (!asset.icon_url.empty()) {
          inventory.icon_by_name.emplace(*asset.market_hash_name, std::move(asset.icon_url));
        }
        inventory.add(
            {std::move(*asset.market_hash_name), asset.paint_index, std::move(asset.applied)},
            asset.amount);
      } else {
        inventory.unnamed_units += asset.amount;
      }
    }
    if (!page.more_items) return inventory;
    if (page.last_asset_id == start) {
      // The platform would send the same page again: refuse rather than loop to the cap.
      throw InventoryError(Kind::kUpstream, "inventory: last_assetid did not advance");
    }
    start = page.last_asset_id;
  }
}

}  // namespace skinpulse::portfolio
