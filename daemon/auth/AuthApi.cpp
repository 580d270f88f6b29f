#include "auth/AuthApi.hpp"

#include "auth/AuthGuard.hpp"
#include "auth/GameLinkLabel.hpp"
#include "common/Json.hpp"
#include "common/JsonBody.hpp"
#include "common/Log.hpp"
#include "common/Time.hpp"
#include "http/HttpError.hpp"

#include <algorithm>
#include <set>

namespace skinpulse::auth {
namespace {

constexpr const char* kPrefix = "/api/v1/auth";
constexpr const char* kGameId = "gameid";

// The refusal codes of docs/api.md §5; anything else a plugin says is a provider error.
const std::set<std::string>& knownErrorCodes() {
  static const std::set<std::string> codes = {"state_mismatch",      "provider_error",
                                              "email_unverified",    "invalid_claimed_id",
                                              "verification_failed", "already_linked"};
  return codes;
}

std::string loginPath(const ProviderEntry& entry) {
  return std::string(kPrefix) + "/" + entry.name + (entry.name == kGameId ? "/login" : "");
}

// A 302 that keeps the headers already set (the Set-Cookie of a new session).
void redirectTo(http::Response& response, const std::string& location) {
  response.status = 302;
  response.body.clear();
  response.content_type = "text/plain; charset=utf-8";
  response.setHeader("Location", location);
}

// {"platform_id","label","linked_at"}: one linked account of GET /me and PATCH.
void writeGameLink(common::JsonWriter& json, const store::GameLinkRecord& link) {
  json.beginObject()
      .key("platform_id")
      .value(link.platform_id)
      .key("label")
      .value(link.label)
      .key("linked_at")
      .value(time::formatIso8601(link.linked_at))
      .endObject();
}

}  // namespace

AuthApi::AuthApi(const SessionManager& sessions, state::SharedStore& store, store::UserStore& users,
                 std::vector<ProviderEntry> providers, AuthApiOptions config)
    : sessions_(sessions),
      store_(store),
      flows_(store),
      accounts_(users, config.max_game_accounts),
      users_(users),
      providers_(std::move(providers)),
      config_(std::move(config)) {}

void AuthApi::registerRoutes(http::Router& router) {
  const std::string prefix = kPrefix;
  // Every path under the prefix, routed or not: never cached (docs/api.md §2), and each
  // routed request counts against the sign-in rate limit (§5).
  router.policy(prefix,
                http::PathPolicy{.no_store = true, .rate_limit_scope = kAuthRateLimitScope});
  router.add("GET", prefix + "/csrf", [this](auto& rq, auto& rs) { csrf(rq, rs); });
  http::RouteOptions user;
  user.requires_user = true;
  router.add(
      "POST", prefix + "/logout", [this](auto& rq, auto& rs) { logout(rq, rs); }, user);
  router.add(
      "GET", prefix + "/providers", [this](auto& rq, auto& rs) { providers(rq, rs); }, user);
  router.add(
      "GET", prefix + "/me", [this](auto& rq, auto& rs) { me(rq, rs); }, user);

  // Only enabled providers get routes: a disabled one's paths are 404 not_found.
  for (const auto& entry : providers_) {
    const ProviderEntry* p = &entry;
    if (entry.name == kGameId) {
      const std::string login = prefix + "/gameid/login";
      const std::string link = prefix + "/gameid";
      router.add("GET", login, [this, p, login](auto& rq, auto& rs) {
        begin(*p, Mode::kLogin, login + "/callback", rq, rs);
      });
      router.add("GET", login + "/callback", [this, p, login](auto& rq, auto& rs) {
        callback(*p, Mode::kLogin, login + "/callback", rq, rs);
      });
      router.add(
          "GET", link,
          [this, p, link](auto& rq, auto& rs) {
            begin(*p, Mode::kLink, link + "/callback", rq, rs);
          },
          user);
      router.add("GET", link + "/callback", [this, p, link](auto& rq, auto& rs) {
        callback(*p, Mode::kLink, link + "/callback", rq, rs);
      });
      // After the literal /login and /callback: those paths are never a platform id.
      http::RouteOptions user_with_body = user;
      user_with_body.accepts_body = true;
      router.add(
          "DELETE", link + "/:platform_id", [this](auto& rq, auto& rs) { unlinkGameId(rq, rs); },
          user);
      router.add(
          "PATCH", link + "/:platform_id", [this](auto& rq, auto& rs) { labelGameId(rq, rs); },
          user_with_body);
    } else {
      const std::string start = prefix + "/" + entry.name;
      router.add("GET", start, [this, p, start](auto& rq, auto& rs) {
        begin(*p, Mode::kLogin, start + "/callback", rq, rs);
      });
      router.add("GET", start + "/callback", [this, p, start](auto& rq, auto& rs) {
        callback(*p, Mode::kLogin, start + "/callback", rq, rs);
      });
    }
  }
}

void AuthApi::csrf(http::Request& request, http::Response& response) const {
  if (request.session.state == http::SessionContext::State::kUnavailable) throwStoreUnavailable();
  std::string token = request.session.csrf_token;
  if (!request.session.active()) {
    const auto issued = sessions_.create("");
    token = issued.context.csrf_token;
    response.setHeader("Set-Cookie", sessions_.setCookieHeader(issued));
  }
  common::JsonWriter json;
  json.beginObject().key("csrf_token").value(token).endObject();
  response.json(json.take());
}

void AuthApi::logout(http::Request& request, http::Response& response) const {
  sessions_.destroy(request.session);
  response.status = 204;
  response.body.clear();
  response.setHeader("Set-Cookie", sessions_.clearCookieHeader());
}

void AuthApi::providers(http::Request& request, http::Response& response) const {
  const auto identities = users_.identitiesOf(request.session.user_id);
  const bool gameLinked = users_.gameLinkOf(request.session.user_id).has_value();
  common::JsonWriter json;
  json.beginObject().key("providers").beginArray();
  for (const auto& entry : providers_) {
    const bool linked = (entry.name == kGameId && gameLinked) ||
                        std::any_of(identities.begin(), identities.end(),
                                    [&](const store::IdentityRecord& identity) {
                                      return identity.provider == entry.name;
                                    });
    json.beginObject()
        .key("name")
        .value(entry.name)
        .key("protocol")
        .value(entry.provider->protocol())
        .key("login_path")
        .value(loginPath(entry));
    if (entry.name == kGameId) json.key("link_path").value(std::string(kPrefix) + "/gameid");
    json.key("linked").value(linked).endObject();
  }
  json.endArray().endObject();
  response.json(json.take());
}

void AuthApi::me(http::Request& request, http::Response& response) const {
  const auto user = users_.findUser(request.session.user_id);
  if (!user) {
    // The account is gone (deleted by an operator): the session means nothing any more.
    sessions_.destroy(request.session);
    throw http::HttpError(401, "unauthenticated", "sign in first");
  }
  common::JsonWriter json;
  json.beginObject().key("user_id").value(user->id).key("email");
  if (user->email.empty()) {
    json.null();
  } else {
    json.value(user->email);
  }
  json.key("name").value(user->display_name).key("avatar_url");
  if (user->avatar_url.empty()) {
    json.null();
  } else {
    json.value(user->avatar_url);
  }
  // `gameid` stays the oldest link (what a one-account client always read); `gameids`
  // lists them all, oldest first (docs/api.md §23.2).
  const auto links = users_.gameLinksOf(user->id);
  json.key("gameid");
  if (!links.empty()) {
    json.beginObject()
        .key("platform_id")
        .value(links.front().platform_id)
        .key("linked_at")
        .value(time::formatIso8601(links.front().linked_at))
        .endObject();
  } else {
    json.null();
  }
  json.key("gameids").beginArray();
  for (const auto& each : links) writeGameLink(json, each);
  json.endArray().endObject();
  response.json(json.take());
}

void AuthApi::unlinkGameId(http::Request& request, http::Response& response) const {
  const std::string& user_id = request.session.user_id;
  const std::string platform_id = request.path_params.at("platform_id");
  const auto link = users_.gameLinkByPlatformId(platform_id);
  if (!link || link->user_id != user_id) {
    throw http::HttpError(404, "not_found", "you have no linked account with this platform id");
  }
  // One transaction removes the link with the account's holdings and import metadata
  // (departures are kept, docs/api.md §23.4); an import of the account still running
  // writes nothing once the link is gone (HoldingStore::replaceLinkedHoldings).
  if (!users_.unlinkGameId(user_id, platform_id)) {
    throw http::HttpError(404, "not_found", "you have no linked account with this platform id");
  }
  log::main().info("user {} unlinked a game-platform account", user_id);
  response.status = 204;
  response.body.clear();
}

void AuthApi::labelGameId(http::Request& request, http::Response& response) const {
  const std::string& user_id = request.session.user_id;
  const std::string platform_id = request.path_params.at("platform_id");
  std::string label;
  try {
    label = parseGameLinkLabel(request.body);
  } catch (const common::MalformedBody& e) {
    throw http::HttpError(400, "invalid_body", e.what());
  } catch (const common::InvalidField& e) {
    throw http::HttpError(400, "invalid_body", e.what());
  }
  const auto link = users_.labelGameId(user_id, platform_id, label);
  if (!link) {
    throw http::HttpError(404, "not_found", "you have no linked account with this platform id");
  }
  common::JsonWriter json;
  writeGameLink(json, *link);
  response.json(json.take());
}

std::string AuthApi::flowName(const ProviderEntry& entry, Mode mode) const {
  return entry.name + (mode == Mode::kLink ? ":link" : ":login");
}

void AuthApi::redirect(http::Response& response, const std::string& error_code) const {
  std::string location = config_.frontend_url;
  if (!error_code.empty()) {
    location += (location.find('?') == std::string::npos ? "?" : "&");
    location += "auth_error=" + error_code;
  }
  redirectTo(response, location);
}

void AuthApi::begin(const ProviderEntry& entry, Mode mode, const std::string& callback_path,
                    http::Request& request, http::Response& response) const {
  if (request.session.state == http::SessionContext::State::kUnavailable) throwStoreUnavailable();
  http::SessionContext session = request.session;
  if (!session.active()) {
    // The flow needs a session to live in; the login rotates it away afterwards.
    const auto issued = sessions_.create("");
    session = issued.context;
    response.setHeader("Set-Cookie", sessions_.setCookieHeader(issued));
  }
  const sdk::LoginContext context{config_.base_url + callback_path, config_.base_url};
  sdk::AuthorizationStart start;
  try {
    start = entry.provider->begin(context);
  } catch (const std::exception& e) {
    start.status = sdk::Status(sdk::Status::Code::kInternal, e.what());
  }
  if (!start.status.isOk() || start.redirect_url.empty()) {
    log::main().warn("{} login could not start: {}", entry.name, start.status.message());
    redirect(response, "provider_error");
    return;
  }
  flows_.put(session, flowName(entry, mode), start.flow);
  redirectTo(response, start.redirect_url);
}

void AuthApi::callback(const ProviderEntry& entry, Mode mode, const std::string& callback_path,
                       http::Request& request, http::Response& response) const {
  if (request.session.state == http::SessionContext::State::kUnavailable) throwStoreUnavailable();
  // Single use: taken before anything else, so a replayed callback finds nothing.
  const auto flow = flows_.take(request.session, flowName(entry, mode));
  if (!flow) return redirect(response, "state_mismatch");
  if (mode == Mode::kLink && !request.session.signedIn())
    return redirect(response, "state_mismatch");

  const sdk::LoginContext context{config_.base_url + callback_path, config_.base_url};
  sdk::Fields params(request.query_params.begin(), request.query_params.end());
  sdk::VerifiedIdentity identity;
  try {
    identity = entry.provider->complete(context, params, config_.base_url + request.target, *flow);
  } catch (const std::exception& e) {
    identity.status = sdk::Status(sdk::Status::Code::kInternal, e.what());
  }
  if (!identity.status.isOk()) {
    const std::string code =
        knownErrorCodes().count(identity.error_code) ? identity.error_code : "provider_error";
    log::main().info("{} login refused ({}): {}", entry.name, code, identity.status.message());
    return redirect(response, code);
  }
  if (!identity.replay_key.empty()) {
    const auto window = std::max<std::int64_t>(identity.replay_window_seconds, 1);
    if (!store_.setIfAbsent("replay:" + entry.name + ":" + identity.replay_key, "1",
                            state::Ttl(window * 1000))) {
      log::main().warn("{} assertion replayed", entry.name);
      return redirect(response, "verification_failed");
    }
  }

  const std::int64_t now = time::nowSeconds();
  Resolution resolution;
  if (mode == Mode::kLink) {
    resolution = accounts_.linkPlatformId(entry.name, request.session.user_id, identity, now);
  } else if (entry.name == kGameId) {
    resolution = accounts_.loginByPlatformId(entry.name, identity, now);
  } else {
    resolution = accounts_.loginByEmail(entry.name, identity, now);
  }
  if (resolution.user_id.empty()) {
    log::main().info("{} login refused ({})", entry.name, resolution.error_code);
    return redirect(response, resolution.error_code);
  }
  // A new id for the signed-in session: nothing planted before the login survives it.
  const auto issued = sessions_.rotate(request.session, resolution.user_id);
  response.setHeader("Set-Cookie", sessions_.setCookieHeader(issued));
  redirect(response, "");
}

}  // namespace skinpulse::auth
