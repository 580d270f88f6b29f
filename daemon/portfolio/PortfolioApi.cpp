#include "portfolio/PortfolioApi.hpp"

#include "auth/AuthGuard.hpp"
#include "common/Json.hpp"
#include "common/Log.hpp"
#include "common/Time.hpp"
#include "currency/Conversion.hpp"
#include "http/HttpError.hpp"
#include "http/Params.hpp"
#include "portfolio/CostBody.hpp"
#include "portfolio/CostCsvPlan.hpp"
#include "portfolio/CostCsvReport.hpp"
#include "portfolio/InventoryError.hpp"
#include "portfolio/PortfolioCsv.hpp"
#include "portfolio/PortfolioDepthJson.hpp"
#include "state/SharedStore.hpp"
#include "telemetry/DaemonMetrics.hpp"

#include <algorithm>
#include <cmath>
#include <exception>

namespace skinpulse::portfolio {
using http::HttpError;
using http::Request;
using http::Response;
using http::RouteOptions;
using http::Router;

namespace {

/// The cost-basis upload's body cap (docs/api.md §23.3): 10,000 rows of a long name and
/// a few numbers fit; the server's cap for every other body stays as configured.
constexpr std::size_t kMaxCostCsvBytes = 1024 * 1024;

using portfolio::ImportRefused;
using portfolio::InventoryError;

[[noreturn]] void throwRefusal(const ImportRefused& refusal) {
  switch (refusal.reason()) {
    case ImportRefused::Reason::kNotLinked:
      throw HttpError(409, "gameid_not_linked", refusal.what());
    case ImportRefused::Reason::kInvalidPlatformId:
      throw HttpError(400, "invalid_platform_id", refusal.what());
    case ImportRefused::Reason::kCooldown:
      throw HttpError(429, "import_cooldown", refusal.what(),
                      {{"Retry-After", std::to_string(refusal.retryAfter())}});
    case ImportRefused::Reason::kUnknownAccount:
      throw HttpError(404, "not_found", refusal.what());
  }
  throw HttpError(500, "internal_error", "unknown import refusal");
}

[[noreturn]] void throwInventoryFailure(const InventoryError& error) {
  // The platform's own words go to the log only; the client gets a stable sentence.
  log::main().warn("portfolio: import failed: {}", error.what());
  switch (error.kind()) {
    case InventoryError::Kind::kPrivate:
      throw HttpError(422, "inventory_private",
                      "the game platform inventory is private; make it public and retry");
    case InventoryError::Kind::kUnavailable:
      throw HttpError(422, "inventory_unavailable",
                      "the game platform profile is not set up; set it up before importing");
    case InventoryError::Kind::kTooLarge:
      throw HttpError(502, "inventory_too_large",
                      "the game platform inventory is larger than this service accepts");
    case InventoryError::Kind::kUpstream:
      break;
  }
  throw HttpError(502, "upstream_unavailable",
                  "the game platform did not answer with an inventory; retry later");
}

// A link's label (docs/api.md §23.2); '' while links have none.
template <typename Link>
std::string linkLabel(const Link& link) {
  if constexpr (requires { link.label; }) {
    return link.label;
  } else {
    return {};
  }
}

const std::string& userOf(const Request& request) {
  if (!request.session.signedIn()) throw HttpError(401, "unauthenticated", "sign in first");
  return request.session.user_id;
}

// Percentages go out with 2 decimals: more is noise to a reader and to a chart.
void percentOrNull(common::JsonWriter& json, const std::optional<double>& percent) {
  if (percent && std::isfinite(*percent)) {
    json.value(std::round(*percent * 100.0) / 100.0);
  } else {
    json.null();
  }
}

void amountOrNull(common::JsonWriter& json, const Money& money,
                  const std::optional<std::int64_t>& cents) {
  if (cents) {
    json.value(money.minor(*cents));
  } else {
    json.null();
  }
}

void timeOrNull(common::JsonWriter& json, const std::optional<std::int64_t>& at) {
  if (at) {
    json.value(time::formatIso8601(*at));
  } else {
    json.null();
  }
}

void writeHolding(common::JsonWriter& json, const ValuedHolding& holding, const Money& money) {
  json.beginObject()
      .key("item_id")
      .value(holding.item_id)
      .key("market_hash_name")
      .value(holding.market_hash_name)
      .key("variant");
  if (holding.variant.empty()) {
    json.null();
  } else {
    json.value(holding.variant);
  }
  json.key("quantity").value(holding.quantity);
  if (money.requested()) json.key("currency").value(money.currency());
  json.key("current_price")
      .value(money.minor(holding.current_price))
      .key("total_value")
      .value(money.minor(holding.total_value))
      .key("imported_at")
      .value(time::formatIso8601(holding.imported_at))
      .key("cost_basis");
  amountOrNull(json, money, holding.cost_basis);
  json.key("acquired_at");
  timeOrNull(json, holding.acquired_at);
  json.key("unrealised_pl");
  amountOrNull(json, money, holding.unrealised_pl);
  json.key("change_24h_percent");
  percentOrNull(json, holding.change_24h_percent);
  // docs/api.md §23.1: which holding, which account, what is applied and its value.
  json.key("holding_id")
      .value(holding.holding_id)
      .key("account")
      .value(holding.account)
      .key("applied");
  writeAppliedList(json, holding.applied, money);
  json.key("applied_value").value(money.minor(holding.applied_value));
  json.endObject();
}

// 7d, 30d (the default) or 1y, in seconds.
std::int64_t historyWindow(const Request& request) {
  const std::string text = request.queryParam("window").value_or("30d");
  if (text == "7d") return 7 * 86400;
  if (text == "30d") return 30 * 86400;
  if (text == "1y") return 365 * 86400;
  throw HttpError::invalidParameter("window", "must be 7d, 30d or 1y");
}

// skinpulse_imports_total's result of a refusal.
std::string_view importRefusalLabel(ImportRefused::Reason reason) {
  switch (reason) {
    case ImportRefused::Reason::kNotLinked:
      return "not_linked";
    case ImportRefused::Reason::kInvalidPlatformId:
      return "invalid_platform_id";
    case ImportRefused::Reason::kCooldown:
      return "cooldown";
    case ImportRefused::Reason::kUnknownAccount:
      return "not_linked";  // the account asked for is not one the user linked
  }
  return "error";
}

// skinpulse_imports_total's result of one account's failure.
std::string_view importFailureLabel(const std::exception_ptr& error) {
  try {
    std::rethrow_exception(error);
  } catch (const ImportRefused& refusal) {
    return importRefusalLabel(refusal.reason());
  } catch (const InventoryError&) {
    return "upstream_failed";
  } catch (const state::StoreUnavailable&) {
    return "store_unavailable";
  } catch (...) {
    return "error";
  }
}

// The problem one account's failure would have answered on its own (docs/api.md §2):
// the same mapping as a one-account import.
HttpError importProblemOf(const std::exception_ptr& error) {
  try {
    try {
      std::rethrow_exception(error);
    } catch (const ImportRefused& refusal) {
      throwRefusal(refusal);
    } catch (const InventoryError& failure) {
      throwInventoryFailure(failure);
    } catch (const state::StoreUnavailable& outage) {
      log::main().warn(
          "portfolio: an account's import refused, the shared store is "
          "unavailable: {}",
          outage.what());
      auth::throwStoreUnavailable();
    }
  } catch (const HttpError& problem) {
    return problem;
  } catch (const std::exception& e) {
    log::main().error("portfolio: an account's import failed: {}", e.what());
  } catch (...) {
    log::main().error("portfolio: an account's import failed");
  }
  return HttpError(500, "internal_error", "the server could not complete the request");
}

// The answer of an import in which at least one account imported (docs/api.md §23.2).
std::string importReportJson(const ImportReport& report) {
  common::JsonWriter json;
  json.beginObject()
      .key("message")
      .value("Imported " + std::to_string(report.imported_units) + " assets")
      .key("imported_assets")
      .value(report.imported_units)
      .key("unmatched_assets")
      .value(report.unmatched_units)
      .key("accounts")
      .beginArray();
  for (const auto& part : report.accounts) {
    json.beginObject().key("account").value(part.account);
    if (part.outcome) {
      json.key("status")
          .value("imported")
          .key("imported_assets")
          .value(part.outcome->imported_units)
          .key("unmatched_assets")
          .value(part.outcome->unmatched_units);
    } else {
      const HttpError problem = importProblemOf(part.error);
      json.key("status")
          .value("failed")
          .key("code")
          .value(problem.code())
          .key("detail")
          .value(problem.detail());
      if (problem.code() == "import_cooldown") {
        for (const auto& [name, value] : problem.headers()) {
          if (name == "Retry-After")
            json.key("retry_after").value(static_cast<std::int64_t>(std::stoll(value)));
        }
      }
    }
    json.endObject();
  }
  json.endArray().endObject();
  return json.take();
}

}  // namespace

PortfolioApi::PortfolioApi(portfolio::ImportService& imports, store::HoldingStore& holdings,
                           const PortfolioValuer& valuer, ValueSnapshots& snapshots,
                           const currency::RateBook& rates, const catalog::Catalog& catalog,
                           store::UserStore& users, int applied_value_percent)
    : imports_(imports),
      holdings_(holdings),
      valuer_(valuer),
      snapshots_(snapshots),
      rates_(rates),
      catalog_(catalog),
      users_(users),
      applied_value_percent_(applied_value_percent) {}

void PortfolioApi::registerRoutes(Router& router) {
  // A user's holdings: never cached (docs/api.md §2), also a 404 or a framing error under
  // the prefix, and the CSV beside it.
  router.policy("/api/v1/portfolio", http::PathPolicy{.no_store = true});
  RouteOptions user_only;
  user_only.requires_user = true;
  RouteOptions with_body = user_only;
  with_body.accepts_body = true;
  router.add(
      "GET", "/api/v1/portfolio", [this](Request& q, Response& r) { show(q, r); }, user_only);
  router.add(
      "POST", "/api/v1/portfolio/import", [this](Request& q, Response& r) { import(q, r); },
      user_only);
  router.add(
      "PATCH", "/api/v1/portfolio/holdings/:item_id",
      [this](Request& q, Response& r) { patchHolding(q, r); }, with_body);
  router.add(
      "GET", "/api/v1/portfolio/history", [this](Request& q, Response& r) { history(q, r); },
      user_only);
  RouteOptions csv_file = user_only;
  csv_file.no_store = true;
  router.add(
      "GET", "/api/v1/portfolio.csv", [this](Request& q, Response& r) { csv(q, r); }, csv_file);
  RouteOptions cost_file = with_body;
  cost_file.max_body_bytes = kMaxCostCsvBytes;
  router.add(
      "POST", "/api/v1/portfolio/cost-basis.csv",
      [this](Request& q, Response& r) { uploadCostCsv(q, r); }, cost_file);
  registerLeftRoutes(router, with_body, user_only);
}

Money PortfolioApi::moneyOf(const Request& request) const {
  return Money(currency::currencyParam(request, rates_));
}

void PortfolioApi::show(Request& request, Response& response) const {
  const std::string& user_id = userOf(request);
  const Money money = moneyOf(request);
  const auto linked = linkedAccounts(user_id);
  const auto account = accountFilter(request, linked);
  const int percent = appliedPercentOf(request);
  const auto now = time::nowSeconds();
  const auto imported_at = holdings_.importedAtByAccount(user_id);
  auto held = holdings_.holdingsOf(user_id);

  // docs/api.md §23.2: every linked account, even before its first import, over all of
  // the user's holdings whatever the filter.
  const auto everything = valuer_.value(held, now, percent);
  std::vector<AccountSummary> accounts;
  for (const auto& link : linked) {
    const std::string& id = link.platform_id;
    AccountSummary summary{id, linkLabel(link)};
    for (const auto& holding : everything.holdings) {
      if (holding.account != id) continue;
      ++summary.item_count;
      summary.total_value += holding.total_value;
    }
    if (const auto at = imported_at.find(id); at != imported_at.end()) {
      summary.last_imported_at = at->second;
    }
    accounts.push_back(std::move(summary));
  }

  std::optional<std::int64_t> last_imported;
  if (account) {
    std::erase_if(held, [&](const store::HoldingRecord& h) { return h.account != *account; });
    if (const auto at = imported_at.find(*account); at != imported_at.end()) {
      last_imported = at->second;
    }
  } else {
    for (const auto& [id, at] : imported_at)
      last_imported = std::max(last_imported.value_or(at), at);
  }
  const auto valuation = account ? valuer_.value(held, now, percent) : everything;

  auto departures = holdings_.departuresOf(user_id);
  if (account) {
    std::erase_if(departures,
                  [&](const store::DepartureRecord& d) { return d.account != *account; });
  }
  const auto left = valuer_.departures(departures, now);

  common::JsonWriter json;
  json.beginObject().key("user_id").value(user_id);
  if (money.requested()) json.key("currency").value(money.currency());
  json.key("total_value")
      .value(money.minor(valuation.total_value))
      .key("cost_total")
      .value(money.minor(valuation.cost_total))
      .key("unrealised_pl");
  amountOrNull(json, money, valuation.unrealised_pl);
  json.key("change_24h_percent");
  percentOrNull(json, valuation.change_24h_percent);
  json.key("item_count")
      .value(static_cast<std::int64_t>(valuation.holdings.size()))
      .key("holdings")
      .beginArray();
  for (const auto& holding : valuation.holdings) writeHolding(json, holding, money);
  json.endArray().key("last_imported_at");
  timeOrNull(json, last_imported);
  json.key("applied_value")
      .value(money.minor(valuation.applied_value))
      .key("applied_value_percent")
      .value(valuation.applied_value_percent)
      .key("accounts");
  writeAccounts(json, accounts, money);
  json.key("left_holdings").beginArray();
  for (const auto& departure : left) writeDeparture(json, departure, money);
  json.endArray().key("realised_pl");
  amountOrNull(json, money, realisedTotal(left));
  json.endObject();
  response.json(json.take());
}

void PortfolioApi::patchHolding(Request& request, Response& response) const {
  const std::string& user_id = userOf(request);
  const auto item_id = http::positiveIdParam(request, "item_id");
  const auto now = time::nowSeconds();
  store::CostChange change;
  try {
    change = parseCostBody(request.body, now);
  } catch (const common::MalformedBody& e) {
    throw HttpError(400, "invalid_body", e.what());
  } catch (const InvalidHolding& e) {
    throw HttpError(422, "invalid_holding", e.what());
  }
  const auto holding = holdings_.changeCost(user_id, item_id, change, now);
  if (!holding) {
    throw HttpError(404, "holding_not_found", "you hold no item with this id; import first");
  }
  const auto valuation = valuer_.value({*holding}, now);
  common::JsonWriter json;
  writeHolding(json, valuation.holdings.front(), moneyOf(request));
  response.json(json.take());
}

void PortfolioApi::history(Request& request, Response& response) const {
  const std::string& user_id = userOf(request);
  const auto window = historyWindow(request);
  const Money money = moneyOf(request);
  common::JsonWriter json;
  json.beginArray();
  for (const auto& snapshot : snapshots_.history(user_id, window, time::nowSeconds())) {
    json.beginObject().key("time").value(time::formatIso8601(snapshot.taken_at));
    if (money.requested()) json.key("currency").value(money.currency());
    json.key("total_value")
        .value(money.minor(snapshot.total_value))
        .key("cost_total")
        .value(money.minor(snapshot.cost_total))
        .endObject();
  }
  json.endArray();
  response.json(json.take());
}

void PortfolioApi::csv(Request& request, Response& response) const {
  const std::string& user_id = userOf(request);
  const auto account = accountFilter(request, linkedAccounts(user_id));
  auto held = holdings_.holdingsOf(user_id);
  if (account) {
    std::erase_if(held, [&](const store::HoldingRecord& h) { return h.account != *account; });
  }
  const auto valuation = valuer_.value(held, time::nowSeconds(), appliedPercentOf(request));
  response.json(portfolioCsv(valuation, moneyOf(request)));
  response.content_type = "text/csv; charset=utf-8";
  response.setHeader("Content-Disposition", "attachment; filename=\"portfolio.csv\"");
}

void PortfolioApi::uploadCostCsv(Request& request, Response& response) const {
  const std::string& user_id = userOf(request);
  const bool dry_run = http::booleanParam(request, "dry_run").value_or(false);
  const auto now = time::nowSeconds();
  const auto held = holdings_.holdingsOf(user_id);
  const auto catalogue = catalog_.snapshot();
  CostCsvPlan plan;
  try {
    plan = planCostCsv(readCsv(request.body), {*catalogue, rates_, held, now});
  } catch (const InvalidCsv& e) {
    throw HttpError(400, "invalid_csv", e.what());
  }
  if (!dry_run) {
    if (plan.matchedRows() == 0) {
      throw HttpError(422, "csv_nothing_to_apply",
                      "no row of the file matched an item you hold; nothing was written "
                      "(send it with ?dry_run=true to see why each row was refused)");
    }
    holdings_.setCosts(user_id, plan.costs(), now);
  }
  response.json(costCsvReportJson(plan, dry_run));
}

void PortfolioApi::import(Request& request, Response& response) const {
  const std::string& user_id = userOf(request);
  const std::optional<std::string> account = request.queryParam("account");
  ImportReport report;
  auto& imports = telemetry::metrics().imports;
  try {
    report = imports_.run(user_id, account);
  } catch (const ImportRefused& refusal) {
    // Refused before any account ran (no link, an account that is not the user's), or
    // every account tried failed: the first one's error, as a one-account import.
    imports.labels({importRefusalLabel(refusal.reason())}).inc();
    throwRefusal(refusal);
  } catch (const InventoryError& error) {
    imports.labels({"upstream_failed"}).inc();
    throwInventoryFailure(error);
  } catch (const state::StoreUnavailable& error) {
    imports.labels({"store_unavailable"}).inc();
    log::main().warn("portfolio: import refused, the shared store is unavailable: {}",
                     error.what());
    auth::throwStoreUnavailable();  // fail closed: no lock, no import (docs/api.md §6)
  } catch (...) {
    imports.labels({"error"}).inc();
    throw;
  }
  for (const auto& part : report.accounts) {
    imports.labels({part.outcome ? std::string_view("ok") : importFailureLabel(part.error)}).inc();
  }
  // The value history gets a point for the new holdings (docs/api.md §15). The import is
  // stored whatever happens here: a failed snapshot is logged, the hourly pass catches up.
  try {
    const auto now = time::nowSeconds();
    snapshots_.takeOne(user_id, valuer_.value(holdings_.holdingsOf(user_id), now), now);
  } catch (const std::exception& e) {
    log::main().warn("portfolio: snapshot after import failed: {}", e.what());
  }
  response.json(importReportJson(report));
}

}  // namespace skinpulse::portfolio
