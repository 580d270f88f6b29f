#include "items/ItemsApi.hpp"

#include "skinpulse/sdk/url_encoding.hpp"

#include "common/Json.hpp"
#include "common/Time.hpp"
#include "http/HttpError.hpp"
#include "http/Params.hpp"
#include "http/PreparedBody.hpp"
#include "quality/CrossMarket.hpp"

#include <cmath>
#include <memory>

namespace skinpulse::items {
using http::booleanParam;
using http::HttpError;
using http::integerParam;
using http::positiveIdParam;
using http::Request;
using http::Response;
using http::Router;
using http::textParam;
using http::windowParam;

namespace {

constexpr std::size_t kMaxFilterBytes = 256;
// Without a cache a body is sent once: compressing or sealing it would cost more than it
// saves. It still carries its ETag (a 304 saves the client the transfer).
const http::PreparedBodyOptions kUncachedBody{.compress_min_bytes = SIZE_MAX,
                                              .sendfile_min_bytes = 0};

}  // namespace

void writePricePoint(common::JsonWriter& json, const store::PricePoint& point,
                     std::optional<bool> stale, const currency::Conversion& money) {
  json.beginObject()
      .key("time")
      .value(time::formatIso8601(point.time))
      .key("price")
      .value(money.amount(point.price))
      .key("volume")
      .value(point.volume)
      .key("kind")
      .value(sdk::priceKindName(point.kind))
      .key("listings");
  if (point.listings) {
    json.value(*point.listings);
  } else {
    json.null();
  }
  json.key("source").value(point.source).key("outlier").value(point.outlier);
  if (stale) json.key("stale").value(*stale);
  if (money.requested()) json.key("currency").value(money.code());
  json.endObject();
}

ItemsApi::ItemsApi(const catalog::Catalog& catalog, const prices::LatestPrices& latest,
                   store::PriceStore& prices, const prices::PricePolicy& policy,
                   ItemsApiOptions config, prices::HistoryCache* cache, Clock clock)
    : catalog_(catalog),
      latest_(latest),
      prices_(prices),
      policy_(policy),
      config_(std::move(config)),
      cache_(cache),
      clock_(clock ? std::move(clock) : Clock([] { return time::nowSeconds(); })) {}

void ItemsApi::registerRoutes(Router& router) {
  // The list and the detail read the catalogue and latest-price snapshots only: inline
  // on the event loop (docs/adr/0010-front-door.md). History reads the store.
  const http::RouteOptions inline_route{.runs_inline = true};
  router.add(
      "GET", "/api/v1/items", [this](Request& q, Response& r) { list(q, r); }, inline_route);
  router.add(
      "GET", "/api/v1/items/:id", [this](Request& q, Response& r) { detail(q, r); }, inline_route);
  // History answers inline from the history cache; a miss goes on to the worker pool,
  // which reads the store (Request::may_defer).
  router.add(
      "GET", "/api/v1/items/:id/history", [this](Request& q, Response& r) { history(q, r); },
      inline_route);
}

void ItemsApi::list(Request& request, Response& response) const {
  catalog::ItemQuery query;
  if (auto q = textParam(request, "q", kMaxFilterBytes, true)) query.q = catalog::lowerUtf8(*q);
  if (auto type = textParam(request, "weapon_type", kMaxFilterBytes, false)) {
    query.weapon_type = catalog::lowerUtf8(*type);
  }
  if (auto rarity = textParam(request, "rarity", kMaxFilterBytes, false)) {
    query.rarity = catalog::lowerUtf8(*rarity);
  }
  query.stattrak = booleanParam(request, "stattrak");
  query.variants = booleanParam(request, "variants").value_or(false);
  query.limit = static_cast<std::size_t>(integerParam(request, "limit", 50, 1, 500));
  query.offset = static_cast<std::size_t>(integerParam(request, "offset", 0, 0, INT64_C(1) << 40));

  const auto snapshot = catalog_.snapshot();
  const bool filtered = query.q || query.weapon_type || query.rarity || query.stattrak;
  std::size_t total = 0;
  if (filtered) {
    const catalog::ItemPage page = catalog::Catalog::query(*snapshot, query);
    total = page.total;
    response.json(catalog::renderItemArray(page.items));
  } else {
    total = query.variants ? snapshot->items().size() : snapshot->baseItems().size();
    response.shared_body = snapshot->unfilteredPage(query.offset, query.limit, query.variants);
  }
  response.setHeader("X-Total-Count", std::to_string(total));
  const std::size_t next = query.offset + query.limit;
  if (next < total) response.setHeader("Link", nextLink(request, next, query.limit));
}

std::string ItemsApi::nextLink(const Request& request, std::size_t next_offset,
                               std::size_t limit) const {
  sdk::Fields kept;
  for (const auto& param : request.query_params) {
    if (param.first != "offset" && param.first != "limit") kept.push_back(param);
  }
  std::string query = sdk::encodeQuery(kept);
  query += (query.empty() ? "" : "&") + std::string("limit=") + std::to_string(limit) +
           "&offset=" + std::to_string(next_offset);
  return "<" + config_.base_url + "/api/v1/items?" + query + ">; rel=\"next\"";
}

const catalog::CatalogItemView& ItemsApi::requireItem(const catalog::CatalogSnapshot& snapshot,
                                                      const Request& request) const {
  const std::int64_t id = positiveIdParam(request, "id");
  const auto* item = snapshot.findById(id);
  if (item == nullptr) {
    throw HttpError(404, "item_not_found", "no item with id " + std::to_string(id));
  }
  return *item;
}

void ItemsApi::detail(Request& request, Response& response) const {
  const auto snapshot = catalog_.snapshot();
  const auto& item = requireItem(*snapshot, request);
  const auto money = currency::currencyParam(
      request, config_.rates != nullptr ? *config_.rates : currency::RateBook::none());
  const auto latest = latest_.of(item.record.id);
  const auto order = policy_.referenceOrder(latest_.sourceNames());
  const std::int64_t now = clock_();
  const auto current = prices::currentPrice(latest, order, now);
  const auto market = quality::consensus(latest, policy_, now);

  // The Item fields come pre-rendered; reopen the object to append the price fields.
  std::string body = item.json;
  body.pop_back();
  body += ",\"current_price\":";
  body += current.price ? std::to_string(money.amount(*current.price)) : "null";
  body += ",\"current_price_source\":";
  if (current.source) {
    common::appendJsonString(body, *current.source);
  } else {
    body += "null";
  }
  body += ",\"consensus_price\":";
  body += market.price ? std::to_string(money.amount(*market.price)) : "null";
  body += ",\"spread_percent\":";
  if (market.spread_percent) {
    common::JsonWriter spread;
    spread.value(std::round(*market.spread_percent * 100.0) / 100.0);
    body += spread.str();
  } else {
    body += "null";
  }
  common::JsonWriter prices;
  prices.beginArray();
  std::optional<std::int64_t> updated;
  for (const auto& entry : latest) {
    writePricePoint(prices, entry.newest, !policy_.freshness().fresh(entry.newest, now), money);
    if (!updated || entry.newest.time > *updated) updated = entry.newest.time;
  }
  prices.endArray();
  body += ",\"latest_prices\":" + prices.str() + ",\"updated_at\":";
  if (updated) {
    common::appendJsonString(body, time::formatIso8601(*updated));
  } else {
    body += "null";
  }
  if (money.requested()) {
    body += ",\"currency\":";
    common::appendJsonString(body, money.code());
  }
  body += '}';
  response.json(std::move(body));
}

void ItemsApi::history(Request& request, Response& response) const {
  const auto snapshot = catalog_.snapshot();
  const auto& item = requireItem(*snapshot, request);
  const std::int64_t window = windowParam(request, "24h");
  const auto source = textParam(request, "source", kMaxFilterBytes, false);
  const auto money = currency::currencyParam(
      request, config_.rates != nullptr ? *config_.rates : currency::RateBook::none());
  const std::int64_t id = item.record.id;
  const std::int64_t now = clock_();
  if (cache_ == nullptr) {
    if (request.may_defer) {
      response.run_on_worker = true;
      return;
    }
    // Sent once: neither compressed nor sealed, only tagged.
    http::PreparedBody::make(renderHistory(id, now - window, source, money).json, kUncachedBody)
        ->send(request, response);
    return;
  }
  const std::string variant = historyVariant(window, source, money.cacheTag());
  if (request.may_defer) {
    // On the event loop: a hit is sent from memory, a miss goes to a worker (which counts
    // the miss).
    if (const auto body = cache_->find(id, variant, now, /*count_miss=*/false)) {
      std::static_pointer_cast<const http::PreparedBody>(body)->send(request, response);
    } else {
      response.run_on_worker = true;
    }
    return;
  }
  auto render = [&] {
    auto rendered = renderHistory(id, now - window, source, money);
    auto body = http::PreparedBody::make(std::move(rendered.json));
    // The body holds the points after now - window: it stays exact until the oldest of
    // them leaves the window (docs/architecture.md, "History cache").
    const std::size_t bytes = body->memoryBytes();
    return prices::HistoryCache::Rendered{
        std::move(body), rendered.oldest == INT64_MAX ? INT64_MAX : rendered.oldest + window,
        bytes};
  };
  std::static_pointer_cast<const http::PreparedBody>(cache_->get(id, variant, now, render))
      ->send(request, response);
}

ItemsApi::RenderedHistory ItemsApi::renderHistory(std::int64_t id, std::int64_t since,
                                                  const std::optional<std::string>& source,
                                                  const currency::Conversion& money) const {
  const auto points = prices_.history(id, since, source);
  common::JsonWriter json;
  json.beginArray();
  for (const auto& point : points) writePricePoint(json, point, std::nullopt, money);
  json.endArray();
  return RenderedHistory{json.take(), points.empty() ? INT64_MAX : points.front().time};
}

std::string historyVariant(std::int64_t window, const std::optional<std::string>& source,
                           const std::string& currency_tag) {
  std::string variant = "h|" + std::to_string(window);
  variant += source ? "|=" + *source : "|*";
  // The tag carries the rate: a new rate selects a new body (the old one ages out).
  if (!currency_tag.empty()) variant += "|$" + currency_tag;
  return variant;
}

}  // namespace skinpulse::items
