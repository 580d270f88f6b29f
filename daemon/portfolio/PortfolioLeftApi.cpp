// PortfolioApi's parts of docs/api.md §23 that need no other handler: the accounts the
// portfolio shows and filters by, the applied-value percent of an answer, and the left
// endpoints (PATCH/DELETE /api/v1/portfolio/left/:departure_id).

#include "common/Json.hpp"
#include "common/JsonBody.hpp"
#include "common/Time.hpp"
#include "http/HttpError.hpp"
#include "http/Params.hpp"
#include "portfolio/CostBody.hpp"
#include "portfolio/PortfolioApi.hpp"
#include "portfolio/PortfolioDepthJson.hpp"

namespace skinpulse::portfolio {

namespace {

const std::string& leftUserOf(const http::Request& request) {
  if (!request.session.signedIn()) {
    throw http::HttpError(401, "unauthenticated", "sign in first");
  }
  return request.session.user_id;
}

// {"sale_price": cents|null}: the one field, an integer of cents per unit in the range a
// cost basis may take, or null to clear it. Anything else is 400 invalid_body (§23.4).
std::optional<std::int64_t> salePriceOf(std::string_view body) {
  Poco::JSON::Object::Ptr object;
  try {
    object = common::parseObjectBody(body);
  } catch (const common::MalformedBody& e) {
    throw http::HttpError(400, "invalid_body", e.what());
  }
  for (const auto& [name, value] : *object) {
    (void)value;
    if (name != "sale_price") {
      throw http::HttpError(
          400, "invalid_body",
          "field '" + name.substr(0, 64) + "' is not a field you can change (sale_price)");
    }
  }
  if (!object->has("sale_price")) {
    throw http::HttpError(400, "invalid_body", "field 'sale_price' is required");
  }
  // The range of a cost basis (portfolio/CostBody): realised P&L subtracts the two.
  const auto cents = centsPerUnit(object->get("sale_price"));
  if (!cents) {
    throw http::HttpError(400, "invalid_body", "field 'sale_price' " + centsPerUnitRule());
  }
  return *cents;
}

}  // namespace

std::vector<store::GameLinkRecord> PortfolioApi::linkedAccounts(const std::string& user_id) const {
  return users_.gameLinksOf(user_id);  // oldest first (docs/api.md §23.2)
}

std::optional<std::string> PortfolioApi::accountFilter(
    const http::Request& request, const std::vector<store::GameLinkRecord>& linked) const {
  const auto account = request.queryParam("account");
  if (!account) return std::nullopt;
  for (const auto& link : linked) {
    if (link.platform_id == *account) return account;
  }
  throw http::HttpError(404, "not_found", "you have linked no account with this id");
}

int PortfolioApi::appliedPercentOf(const http::Request& request) const {
  return static_cast<int>(
      http::integerParam(request, "applied_value_percent", applied_value_percent_, 0, 100));
}

void PortfolioApi::registerLeftRoutes(http::Router& router, const http::RouteOptions& with_body,
                                      const http::RouteOptions& user_only) {
  router.add(
      "PATCH", "/api/v1/portfolio/left/:departure_id",
      [this](http::Request& q, http::Response& r) { patchLeft(q, r); }, with_body);
  router.add(
      "DELETE", "/api/v1/portfolio/left/:departure_id",
      [this](http::Request& q, http::Response& r) { deleteLeft(q, r); }, user_only);
}

void PortfolioApi::patchLeft(http::Request& request, http::Response& response) const {
  const std::string& user_id = leftUserOf(request);
  const auto departure_id = http::positiveIdParam(request, "departure_id");
  const auto sale_price = salePriceOf(request.body);
  const auto now = time::nowSeconds();
  const auto departure = holdings_.setSalePrice(user_id, departure_id, sale_price, now);
  if (!departure) throw http::HttpError(404, "not_found", "you have no departure with this id");
  common::JsonWriter json;
  writeDeparture(json, valuer_.departures({*departure}, now).front(), moneyOf(request));
  response.json(json.take());
}

void PortfolioApi::deleteLeft(http::Request& request, http::Response& response) const {
  const std::string& user_id = leftUserOf(request);
  const auto departure_id = http::positiveIdParam(request, "departure_id");
  if (!holdings_.deleteDeparture(user_id, departure_id)) {
    throw http::HttpError(404, "not_found", "you have no departure with this id");
  }
  response.status = 204;
}

}  // namespace skinpulse::portfolio
