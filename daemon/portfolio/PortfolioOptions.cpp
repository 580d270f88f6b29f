#include "portfolio/PortfolioOptions.hpp"

namespace skinpulse::portfolio {

const common::OptionTable<PortfolioOptions>& portfolioOptionTable() {
  using T = common::OptionType;
  static const common::OptionTable<PortfolioOptions> table = {
      {{"portfolio.import_cooldown_seconds", T::kInteger, 0, 30 * 86400, "IMPORT_COOLDOWN_SECONDS",
        "600", "Seconds between two inventory imports of one user."},
       &PortfolioOptions::import_cooldown_seconds},
      {{"portfolio.inventory_max_bytes", T::kInteger, 1024, 1024LL * 1024 * 1024,
        "INVENTORY_MAX_BYTES", "8388608",
        "Byte cap per inventory page, enforced while reading; a bigger page fails the import "
        "(502 inventory_too_large)."},
       &PortfolioOptions::inventory_max_bytes},
      {{"portfolio.inventory_url", T::kUrl, 0, 0, "GAMEID_INVENTORY_URL",
        "https://steamcommunity.com/inventory",
        "Base address of the game platform's inventory endpoint; a page is "
        "{base}/{id64}/730/2?l=english&count=1000[&start_assetid=...]."},
       &PortfolioOptions::inventory_url},
      {{"portfolio.inventory_timeout_seconds", T::kInteger, 1, 600, nullptr, "20",
        "Seconds one inventory page may take (connect, send, receive); at most 50 pages."},
       &PortfolioOptions::inventory_timeout_seconds},
      {{"gameid.requests_per_minute", T::kInteger, 1, 100000, nullptr, "20",
        "Requests per minute this daemon sends to the game platform (the origin of "
        "inventory_url), shared by inventory imports and the steam_market source; polling "
        "leaves a quarter for imports (which users whose import failed in the last 10 "
        "minutes leave too), an import finding none answers 429 import_cooldown."},
       &PortfolioOptions::gameid_requests_per_minute},
      {{"portfolio.snapshot_interval_seconds", T::kInteger, 1, 86400, nullptr, "3600",
        "Seconds between two passes of portfolio value snapshots (the value history); "
        "a user keeps one snapshot per hour, a later pass in the same hour replaces it."},
       &PortfolioOptions::snapshot_interval_seconds},
      {{"portfolio.history_retention_days", T::kInteger, 1, 3650, nullptr, "365",
        "Days of portfolio value snapshots kept; each pass deletes older ones."},
       &PortfolioOptions::history_retention_days},
      {{"portfolio.applied_value_percent", T::kInteger, 0, 100, nullptr, "0",
        "Percent of the value of the stickers and charms applied to held items that the "
        "portfolio's totals count (GET /api/v1/portfolio?applied_value_percent= overrides it "
        "per request); 0 leaves the totals as they were, the applied value is shown either "
        "way."},
       &PortfolioOptions::applied_value_percent},
  };
  return table;
}

}  // namespace skinpulse::portfolio
