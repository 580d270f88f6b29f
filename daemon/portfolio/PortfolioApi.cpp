#include "portfolio/PortfolioApi.hpp"

#include "auth/AuthGuard.hpp"
#include "common/Json.hpp"
#include "common/Log.hpp"
#include "common/Time.hpp"
#include "http/HttpError.hpp"
#include "portfolio/InventoryError.hpp"
#include "portfolio/Valuation.hpp"
#include "state/SharedStore.hpp"
#include "telemetry/DaemonMetrics.hpp"

namespace skinpulse::portfolio {
using http::HttpError;
using http::Request;
using http::Response;
using http::RouteOptions;
using http::Router;

namespace {

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

void writeHolding(JsonWriter& json, const portfolio::ValuedHolding& holding) {
  json.beginObject()
      .key("item_id")
      .value(holding.item_id)
      .key("market_hash_name")
      .value(holding.market_hash_name)
      .key("quantity")
      .value(holding.quantity)
      .key("current_price")
      .value(holding.current_price)
      .key("total_value")
      .value(holding.total_value)
      .key("imported_at")
      .value(time::formatIso8601(holding.imported_at))
      .endObject();
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
  }
  return "error";
}

}  // namespace

PortfolioApi::PortfolioApi(portfolio::ImportService& imports, HoldingStore& holdings,
                           const Catalog& catalog, const LatestPrices& latest,
                           PortfolioApiOptions config)
    : imports_(imports),
      holdings_(holdings),
      catalog_(catalog),
      latest_(latest),
      config_(std::move(config)) {}

void PortfolioApi::registerRoutes(Router& router) {
  RouteOptions user_only;
  user_only.requires_user = true;
  router.add(
      "GET", "/api/v1/portfolio", [this](Request& q, Response& r) { show(q, r); }, user_only);
  router.add(
      "POST", "/api/v1/portfolio/import", [this](Request& q, Response& r) { import(q, r); },
      user_only);
}

void PortfolioApi::show(Request& request, Response& response) const {
  const std::string& user_id = request.session.user_id;
  if (!request.session.signedIn()) throw HttpError(401, "unauthenticated", "sign in first");
  const auto holdings = holdings_.holdingsOf(user_id);
  const auto last_imported = holdings_.lastImportedAt(user_id);
  const auto order = referenceOrder(config_.configured_reference_sources, config_.enabled_sources,
                                    latest_.sourceNames());
  const auto valuation = portfolio::valueHoldings(holdings, *catalog_.snapshot(), latest_, order,
                                                  time::nowSeconds(), config_.exclude_outliers);

  JsonWriter json;
  json.beginObject()
      .key("user_id")
      .value(user_id)
      .key("total_value")
      .value(valuation.total_value)
      .key("item_count")
      .value(static_cast<std::int64_t>(valuation.holdings.size()))
      .key("holdings")
      .beginArray();
  for (const auto& holding : valuation.holdings) writeHolding(json, holding);
  json.endArray().key("last_imported_at");
  if (last_imported) {
    json.value(time::formatIso8601(*last_imported));
  } else {
    json.null();
  }
  json.endObject();
  response.json(json.take());
}

void PortfolioApi::import(Request& request, Response& response) const {
  if (!request.session.signedIn()) throw HttpError(401, "unauthenticated", "sign in first");
  portfolio::ImportOutcome outcome;
  auto& imports = telemetry::metrics().imports;
  try {
    outcome = imports_.run(request.session.user_id);
    imports.labels({"ok"}).inc();
  } catch (const ImportRefused& refusal) {
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
  JsonWriter json;
  json.beginObject()
      .key("message")
      .value("Imported " + std::to_string(outcome.imported_units) + " assets")
      .key("imported_assets")
      .value(outcome.imported_units)
      .key("unmatched_assets")
      .value(outcome.unmatched_units)
      .endObject();
  response.json(json.take());
}

}  // namespace skinpulse::portfolio
