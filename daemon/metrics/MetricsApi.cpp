#include "metrics/MetricsApi.hpp"

#include "currency/JsonAmounts.hpp"
#include "http/HttpError.hpp"
#include "http/Params.hpp"

namespace skinpulse::metrics {
using http::HttpError;
using http::integerParam;
using http::positiveIdParam;
using http::Request;
using http::Response;
using http::Router;
using http::windowParam;

namespace {

constexpr std::int64_t kDefaultRankingLimit = 20;

// The fields of the Volatility object that are amounts in cents (docs/api.md §3.2): the
// deviation, the bands and the slope (cents per hour). Ratios (percent_change,
// coefficient_of_variation) are the same in every currency.
const std::vector<std::string_view> kVolatilityAmounts = {
    "rolling_stddev", "bollinger.upper", "bollinger.middle", "bollinger.lower", "trend_score"};
const std::vector<std::string_view> kRankingAmounts = {"current_price"};

std::size_t windowOf(const Request& request) {
  // windowParam refuses anything but 1h, 24h and 7d, so the lookup always succeeds.
  return *metrics::windowIndexOfSeconds(windowParam(request, "24h"));
}

}  // namespace

MetricsApi::MetricsApi(const catalog::Catalog& catalog, const metrics::MetricsEngine& engine,
                       const currency::RateBook* rates)
    : catalog_(catalog),
      engine_(engine),
      rates_(rates != nullptr ? *rates : currency::RateBook::none()) {}

void MetricsApi::registerRoutes(Router& router) {
  // Both answer from the engine's snapshot: inline (docs/adr/0010-front-door.md).
  const http::RouteOptions inline_route{.runs_inline = true};
  router.add(
      "GET", "/api/v1/items/:id/volatility", [this](Request& q, Response& r) { volatility(q, r); },
      inline_route);
  router.add(
      "GET", "/api/v1/rankings/volatile", [this](Request& q, Response& r) { rankings(q, r); },
      inline_route);
}

void MetricsApi::volatility(Request& request, Response& response) const {
  // Same order as history: the id, the item, then the window.
  const std::int64_t id = positiveIdParam(request, "id");
  if (catalog_.snapshot()->findById(id) == nullptr) {
    throw HttpError(404, "item_not_found", "no item with id " + std::to_string(id));
  }
  const std::size_t window = windowOf(request);
  const auto money = currency::currencyParam(request, rates_);
  const auto snapshot = engine_.snapshot();
  const std::string_view object = snapshot->volatility(id, window);
  const std::string body =
      object.empty() ? snapshot->emptyVolatility(id, window) : std::string(object);
  response.json(money.requested() ? currency::convertJsonAmounts(body, money, kVolatilityAmounts)
                                  : body);
}

void MetricsApi::rankings(Request& request, Response& response) const {
  const auto limit = integerParam(request, "limit", kDefaultRankingLimit, 1,
                                  static_cast<std::int64_t>(metrics::MetricsSnapshot::kMaxRanking));
  const std::size_t window = windowOf(request);
  const auto money = currency::currencyParam(request, rates_);
  std::string body = engine_.snapshot()->rankingBody(window, static_cast<std::size_t>(limit));
  response.json(money.requested() ? currency::convertJsonAmounts(body, money, kRankingAmounts)
                                  : std::move(body));
}

}  // namespace skinpulse::metrics
