#include "access/KeysApi.hpp"

#include "access/ApiKey.hpp"
#include "common/Json.hpp"
#include "common/JsonBody.hpp"
#include "common/Time.hpp"
#include "http/HttpError.hpp"

#include <Poco/UUIDGenerator.h>

namespace skinpulse::access {
namespace {

using http::HttpError;
using http::Request;
using http::Response;

const std::string& userOf(const Request& request) {
  if (!request.session.signedIn()) throw HttpError(401, "unauthenticated", "sign in first");
  return request.session.user_id;
}

// Well-formed UTF-8 without C0/C1 controls or DEL.
bool isCleanUtf8(std::string_view text) {
  for (std::size_t i = 0; i < text.size();) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c < 0x20 || c == 0x7f) return false;
    std::size_t length = c < 0x80           ? 1
                         : (c >> 5) == 0x6  ? 2
                         : (c >> 4) == 0xe  ? 3
                         : (c >> 3) == 0x1e ? 4
                                            : 0;
    if (length == 0 || i + length > text.size()) return false;
    std::uint32_t code = length == 1 ? c : c & (0xff >> (length + 1));
    for (std::size_t k = 1; k < length; ++k) {
      const auto next = static_cast<unsigned char>(text[i + k]);
      if ((next >> 6) != 0x2) return false;
      code = (code << 6) | (next & 0x3f);
    }
    const std::uint32_t min = length == 1 ? 0 : length == 2 ? 0x80 : length == 3 ? 0x800 : 0x10000;
    if (code < min || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return false;
    if (code >= 0x80 && code <= 0x9f) return false;
    i += length;
  }
  return true;
}

void writeKey(common::JsonWriter& json, const store::ApiKeyRecord& key,
              const store::ApiKeyUsage& pending) {
  json.beginObject();
  json.key("id").value(key.id);
  json.key("name").value(key.name);
  json.key("prefix").value(key.prefix);
  json.key("created_at").value(time::formatIso8601(key.created_at));
  std::int64_t last_used = key.last_used_at.value_or(0);
  if (pending.last_used_at > last_used) last_used = pending.last_used_at;
  json.key("last_used_at");
  if (last_used > 0) {
    json.value(time::formatIso8601(last_used));
  } else {
    json.null();
  }
  json.key("requests").value(key.requests + pending.requests);
  json.key("rate_limited").value(key.rate_limited + pending.rate_limited);
  json.endObject();
}

}  // namespace

std::string keyNameOf(std::string_view body) {
  const auto object = common::parseObjectBody(body);
  if (!object->has("name")) throw common::InvalidField("name", "is required");
  const auto value = object->get("name");
  if (!value.isString()) throw common::InvalidField("name", "must be a string");
  std::string name = value.extract<std::string>();
  const auto first = name.find_first_not_of(' ');
  if (first == std::string::npos) throw common::InvalidField("name", "must not be empty");
  name = name.substr(first, name.find_last_not_of(' ') - first + 1);
  if (name.size() > kMaxKeyNameBytes) {
    throw common::InvalidField("name",
                               "must be at most " + std::to_string(kMaxKeyNameBytes) + " bytes");
  }
  if (!isCleanUtf8(name)) {
    throw common::InvalidField("name", "must be UTF-8 text without control characters");
  }
  return name;
}

KeysApi::KeysApi(store::ApiKeyStore& store, KeyDirectory& directory, int max_keys_per_user,
                 Clock clock)
    : store_(store),
      directory_(directory),
      max_keys_per_user_(max_keys_per_user),
      clock_(clock ? std::move(clock) : Clock([] { return time::nowSeconds(); })) {}

void KeysApi::registerRoutes(http::Router& router) {
  // A user's keys: never cached (docs/api.md §2), routed or not.
  router.policy("/api/v1/keys", http::PathPolicy{.no_store = true});
  http::RouteOptions read;
  read.requires_user = true;
  http::RouteOptions write = read;
  write.accepts_body = true;
  router.add(
      "GET", "/api/v1/keys", [this](Request& q, Response& r) { list(q, r); }, read);
  router.add(
      "POST", "/api/v1/keys", [this](Request& q, Response& r) { create(q, r); }, write);
  router.add(
      "DELETE", "/api/v1/keys/:id", [this](Request& q, Response& r) { revoke(q, r); }, read);
}

void KeysApi::create(Request& request, Response& response) {
  const auto& user = userOf(request);
  std::string name;
  try {
    name = keyNameOf(request.body);
  } catch (const common::MalformedBody& e) {
    throw HttpError(400, "invalid_body", e.what());
  } catch (const common::InvalidField& e) {
    throw HttpError(422, "invalid_api_key_name", e.what());
  } catch (const Poco::Exception& e) {
    throw HttpError(422, "invalid_api_key_name", "field 'name' " + e.displayText());
  }
  const NewApiKey fresh = generateApiKey();
  store::ApiKeyRecord record{Poco::UUIDGenerator::defaultGenerator().createRandom().toString(),
                             user,
                             name,
                             fresh.prefix,
                             fresh.hash,
                             clock_(),
                             {},
                             0,
                             0};
  if (!store_.createKey(record, max_keys_per_user_)) {
    throw HttpError(
        409, "api_key_limit",
        "you hold " + std::to_string(max_keys_per_user_) + " API keys already; revoke one first");
  }
  directory_.added({record.id, record.user_id, record.secret_hash});
  common::JsonWriter json;
  json.beginObject();
  json.key("id").value(record.id);
  json.key("name").value(record.name);
  json.key("prefix").value(record.prefix);
  json.key("key").value(fresh.key);
  json.key("created_at").value(time::formatIso8601(record.created_at));
  json.endObject();
  response.json(json.take(), 201);
  response.setHeader("Location", "/api/v1/keys/" + record.id);
}

void KeysApi::list(Request& request, Response& response) {
  const auto& user = userOf(request);
  common::JsonWriter json;
  json.beginObject();
  json.key("limit").value(max_keys_per_user_);
  json.key("keys").beginArray();
  for (const auto& key : store_.keysOf(user)) writeKey(json, key, directory_.pendingUsage(key.id));
  json.endArray();
  json.endObject();
  response.json(json.take());
}

void KeysApi::revoke(Request& request, Response& response) {
  const auto& user = userOf(request);
  const std::string id = request.path_params.at("id");
  if (id.size() > 64 || !store_.revokeKey(user, id)) {
    throw HttpError(404, "api_key_not_found", "no API key of yours has this id");
  }
  directory_.removed(id);
  response.status = 204;
  response.body.clear();
}

}  // namespace skinpulse::access
