#include "metrics/CandlesApi.hpp"

#include "common/Time.hpp"
#include "http/HttpError.hpp"
#include "http/Params.hpp"
#include "metrics/Candles.hpp"
#include "metrics/CandlesWindows.hpp"

#include <memory>

namespace skinpulse::metrics {
namespace {

constexpr std::size_t kMaxSourceBytes = 256;

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
  router.add("GET", "/api/v1/items/:id/candles",
             [this](http::Request& q, http::Response& r) { candles(q, r); });
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
  auto render = [&] {
    auto read = reader_.read(id, *source, *window, *interval, now);
    return prices::HistoryCache::Rendered{
        std::make_shared<const std::string>(
            renderCandles(id, source, window->name, interval_name, read.candles, money)),
        read.valid_until};
  };
  if (cache_ == nullptr) {
    response.shared_body = render().body;
    return;
  }
  // The source is resolved before the lookup and is part of the key: a cycle that moves
  // the reference source to another one selects another body.
  const std::string variant = "c|" + std::string(window->name) + "|" + interval_name + "|" +
                              *source +
                              (money.identity() ? std::string() : "|$" + money.cacheTag());
  response.shared_body = cache_->get(id, variant, now, render);
}

}  // namespace skinpulse::metrics
