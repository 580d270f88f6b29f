#include "alerts/AlertsApi.hpp"

#include "common/Json.hpp"
#include "common/Time.hpp"
#include "http/HttpError.hpp"
#include "http/Params.hpp"

namespace skinpulse::alerts {
using http::HttpError;
using http::Request;
using http::Response;

namespace {

const std::string& userOf(const Request& request) {
  if (!request.session.signedIn()) throw HttpError(401, "unauthenticated", "sign in first");
  return request.session.user_id;
}

[[noreturn]] void notFound() {
  throw HttpError(404, "alert_not_found", "no alert rule of yours has this id");
}

// Parses the body; refusals as docs/api.md §13 lists them.
RuleInput inputOf(const Request& request, bool require_all, const ParseOptions& options) {
  try {
    return parseRuleBody(request.body, require_all, options);
  } catch (const MalformedBody& e) {
    throw HttpError(400, "invalid_body", e.what());
  } catch (const InvalidAlert& e) {
    throw HttpError(422, "invalid_alert", e.what());
  }
}

std::string ruleBody(const Rule& rule, bool show_secrets) {
  common::JsonWriter json;
  writeRule(json, rule, show_secrets);
  return json.take();
}

}  // namespace

void AlertsApi::registerRoutes(http::Router& router) {
  // A user's rules and deliveries: never cached (docs/api.md §2), routed or not.
  router.policy("/api/v1/alerts", http::PathPolicy{.no_store = true});
  http::RouteOptions read;
  read.requires_user = true;
  http::RouteOptions write = read;
  write.accepts_body = true;
  router.add(
      "GET", "/api/v1/alerts", [this](Request& q, Response& r) { list(q, r); }, read);
  router.add(
      "POST", "/api/v1/alerts", [this](Request& q, Response& r) { create(q, r); }, write);
  router.add(
      "GET", "/api/v1/alerts/:id", [this](Request& q, Response& r) { show(q, r); }, read);
  router.add(
      "PATCH", "/api/v1/alerts/:id", [this](Request& q, Response& r) { patch(q, r); }, write);
  router.add(
      "DELETE", "/api/v1/alerts/:id", [this](Request& q, Response& r) { remove(q, r); }, read);
  router.add(
      "GET", "/api/v1/alerts/:id/deliveries", [this](Request& q, Response& r) { deliveries(q, r); },
      read);
}

void AlertsApi::list(Request& request, Response& response) {
  const auto& user = userOf(request);
  common::JsonWriter json;
  json.beginArray();
  for (const auto& rule : service_.list(user)) writeRule(json, rule, false);
  json.endArray();
  response.json(json.take());
}

void AlertsApi::create(Request& request, Response& response) {
  const auto& user = userOf(request);
  const ParseOptions options{service_.options().allow_private_targets};
  const auto input = inputOf(request, true, options);
  try {
    const auto rule = service_.create(user, input);
    response.json(ruleBody(rule, true), 201);
    response.setHeader("Location", "/api/v1/alerts/" + std::to_string(rule.id));
  } catch (const InvalidAlert& e) {
    throw HttpError(422, "invalid_alert", e.what());
  } catch (const AlertLimitReached& e) {
    throw HttpError(409, "alert_limit", e.what());
  }
}

void AlertsApi::show(Request& request, Response& response) {
  const auto& user = userOf(request);
  const auto id = http::positiveIdParam(request, "id");
  const auto rule = service_.get(user, id);
  if (!rule) notFound();
  response.json(ruleBody(*rule, false));
}

void AlertsApi::patch(Request& request, Response& response) {
  const auto& user = userOf(request);
  const auto id = http::positiveIdParam(request, "id");
  const ParseOptions options{service_.options().allow_private_targets};
  const auto input = inputOf(request, false, options);
  try {
    const auto rule = service_.patch(user, id, input);
    if (!rule) notFound();
    response.json(ruleBody(*rule, true));
  } catch (const InvalidAlert& e) {
    throw HttpError(422, "invalid_alert", e.what());
  }
}

void AlertsApi::remove(Request& request, Response& response) {
  const auto& user = userOf(request);
  const auto id = http::positiveIdParam(request, "id");
  if (!service_.remove(user, id)) notFound();
  response.status = 204;
  response.body.clear();
}

void AlertsApi::deliveries(Request& request, Response& response) {
  const auto& user = userOf(request);
  const auto id = http::positiveIdParam(request, "id");
  const auto rows = service_.deliveries(user, id, kDeliveriesListed);
  if (!rows) notFound();
  common::JsonWriter json;
  json.beginArray();
  for (const auto& d : *rows) {
    json.beginObject()
        .key("delivery_id")
        .value(d.id)
        .key("alert_id")
        .value(d.rule_id)
        .key("channel")
        .value(d.channel_type)
        .key("status")
        .value(d.status)
        .key("attempts")
        .value(d.attempts)
        .key("created_at")
        .value(time::formatIso8601(d.created_at))
        .key("last_attempt_at");
    if (d.last_attempt_at) {
      json.value(time::formatIso8601(*d.last_attempt_at));
    } else {
      json.null();
    }
    json.key("next_attempt_at");
    if (d.status == "pending") {
      json.value(time::formatIso8601(d.next_attempt_at));
    } else {
      json.null();
    }
    json.key("response_status");
    if (d.response_status) {
      json.value(*d.response_status);
    } else {
      json.null();
    }
    json.key("error");
    if (d.last_error.empty()) {
      json.null();
    } else {
      json.value(d.last_error);
    }
    json.endObject();
  }
  json.endArray();
  response.json(json.take());
}

}  // namespace skinpulse::alerts
