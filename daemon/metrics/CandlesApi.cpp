#include "metrics/CandlesApi.hpp"

#include "common/Time.hpp"
#include "http/HttpError.hpp"
#include "http/Params.hpp"
#include "http/PreparedBody.hpp"
#include "metrics/Candles.hpp"
#include "metrics/CandlesWindows.hpp"

#include <cstdint>
#include <memory>

namespace skinpulse::metrics {
namespace {

constexpr std::size_t kMaxSourceBytes = 256;
// Without a cache a body is sent once: compressing or sealing it would cost more than it
// saves. It still carries its ETag (a 304 saves the client the transfer).
const http::PreparedBodyOptions kUncachedBody{.compress_min_bytes = SIZE_MAX,
                                              .sendfile_min_bytes = 0};

}  // namespace

CandlesApi::CandlesApi(const catalog::Catalog& catalog, const prices::LatestPrices& latest,
                       store::PriceStore& prices, const prices::PricePolicy& policy,
                       CandlesApiConfig config, Clock clock, prices::HistoryCache* cache)
    : catalog_(catalog),
      latest_(latest),
      policy_(policy),
      config_(std::move(config)),
      reader_(prices, policy, config_.retention_days),
      cache_(cache),
      clock_(clock ? std::move(clock) : Clock([] { return time::nowSeconds(); })) {}

void CandlesApi::registerRoutes(http::Router& router) {
  // Inline from the history cache; a miss goes on to the worker pool, which reads the
  // store (http::Request::may_defer).
  router.add(
      "GET", "/api/v1/items/:id/candles",
      [this](http::Request& q, http::Response& r) { candles(q, r); },
      http::RouteOptions{.runs_inline = true});
}

void CandlesApi::candles(http::Request& request, http::Response& response) const {
  const std::int64_t id = http::positiveIdParam(request, "id");
  const std::string window_name = request.queryParam("window").value_or("24h");
  const auto window = candleWindow(window_name);
  if (!window) throw http::HttpError::invalidParameter("window", "must be " + candleWindowNames());
  const std::string interval_name =
      request.queryParam("interval").value_or(std::string(window->default_interval));
  const auto interval = candleIntervalSeconds(interval_name);
  if (!interval) {
    throw http::HttpError::invalidParameter("interval", "must be " + candleIntervalNames());
  }
  if (auto refusal = intervalRefusal(*window, interval_name)) {
    throw http::HttpError::invalidParameter("interval", *refusal);
  }
  auto source = http::textParam(request, "source", kMaxSourceBytes, false);

  const auto money = currency::currencyParam(
      request, config_.rates != nullptr ? *config_.rates : currency::RateBook::none());
  const auto snapshot = catalog_.snapshot();
  if (snapshot->findById(id) == nullptr) {
    throw http::HttpError(404, "item_not_found", "no item with id " + std::to_string(id));
  }
  const std::int64_t now = clock_();
  if (!source) {
    const auto order = policy_.referenceOrder(latest_.sourceNames());
    source = prices::currentPrice(latest_.of(id), order, now).source;
  }
  if (!source) {
    response.json(renderCandles(id, source, window->name, interval_name, {}, money));
    return;
  }
  if (cache_ == nullptr) {
    if (request.may_defer) {
      response.run_on_worker = true;
      return;
    }
    auto read = reader_.read(id, *source, *window, *interval, now);
    // Sent once: neither compressed nor sealed, only tagged.
    http::PreparedBody::make(
        renderCandles(id, source, window->name, interval_name, read.candles, money), kUncachedBody)
        ->send(request, response);
    return;
  }
  // The source is resolved before the lookup and is part of the key: a cycle that moves
  // the reference source to another one selects another body.
  const std::string variant = "c|" + std::string(window->name) + "|" + interval_name + "|" +
                              *source +
                              (money.identity() ? std::string() : "|$" + money.cacheTag());
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
    auto read = reader_.read(id, *source, *window, *interval, now);
    auto body = http::PreparedBody::make(
        renderCandles(id, source, window->name, interval_name, read.candles, money));
    const std::size_t bytes = body->memoryBytes();
    return prices::HistoryCache::Rendered{std::move(body), read.valid_until, bytes};
  };
  std::static_pointer_cast<const http::PreparedBody>(cache_->get(id, variant, now, render))
      ->send(request, response);
}

}  // namespace skinpulse::metrics
