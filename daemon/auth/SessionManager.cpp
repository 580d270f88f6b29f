#include "auth/SessionManager.hpp"

#include "auth/Csrf.hpp"
#include "common/Json.hpp"
#include "common/Time.hpp"

#include <Poco/JSON/Object.h>
#include <Poco/JSON/Parser.h>

#include <algorithm>

namespace skinpulse::auth {
namespace {

constexpr const char* kCookieName = "skinpulse_session";
constexpr const char* kSecureCookieName = "__Host-skinpulse_session";

std::string trim(std::string_view text) {
  const auto begin = text.find_first_not_of(" \t");
  if (begin == std::string_view::npos) return {};
  const auto end = text.find_last_not_of(" \t");
  return std::string(text.substr(begin, end - begin + 1));
}

std::string serialise(const http::SessionContext& session) {
  common::JsonWriter json;
  json.beginObject()
      .key("user_id")
      .value(session.user_id)
      .key("csrf_token")
      .value(session.csrf_token)
      .key("created_at")
      .value(session.created_at)
      .key("expires_at")
      .value(session.expires_at)
      .endObject();
  return json.take();
}

// The stored record, or nullopt when it is not one of ours (treated as no session).
std::optional<http::SessionContext> parse(const std::string& text) {
  try {
    const auto root = Poco::JSON::Parser().parse(text).extract<Poco::JSON::Object::Ptr>();
    http::SessionContext session;
    session.user_id = root->getValue<std::string>("user_id");
    session.csrf_token = root->getValue<std::string>("csrf_token");
    session.created_at = root->getValue<std::int64_t>("created_at");
    session.expires_at = root->getValue<std::int64_t>("expires_at");
    if (session.csrf_token.empty()) return std::nullopt;
    return session;
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

}  // namespace

std::vector<std::string> findCookies(const http::Request& request, const std::string& name) {
  std::vector<std::string> values;
  for (const auto& [header, value] : request.headers) {
    if (header.size() != 6 || !std::equal(header.begin(), header.end(), "cookie",
                                          [](char a, char b) { return std::tolower(a) == b; })) {
      continue;
    }
    std::string_view rest = value;
    while (!rest.empty()) {
      const auto semicolon = rest.find(';');
      const std::string_view pair = rest.substr(0, semicolon);
      rest = semicolon == std::string_view::npos ? std::string_view() : rest.substr(semicolon + 1);
      const auto equals = pair.find('=');
      if (equals == std::string_view::npos) continue;
      if (trim(pair.substr(0, equals)) == name) values.push_back(trim(pair.substr(equals + 1)));
    }
  }
  return values;
}

SessionManager::SessionManager(state::SharedStore& store, SessionOptions settings, Clock clock)
    : store_(store),
      cookie_(std::move(settings.secret)),
      lifetime_seconds_(static_cast<std::int64_t>(settings.lifetime_hours) * 3600),
      // Never longer than a signed-in session: a rotation must not shorten a session.
      anonymous_lifetime_seconds_(std::min<std::int64_t>(
          static_cast<std::int64_t>(settings.anonymous_lifetime_minutes) * 60, lifetime_seconds_)),
      secure_(settings.secure),
      cookie_name_(settings.secure ? kSecureCookieName : kCookieName),
      clock_(clock ? std::move(clock) : Clock([] { return time::nowSeconds(); })) {}

http::SessionContext SessionManager::load(const http::Request& request) const {
  const auto values = findCookies(request, cookie_name_);
  // Two or more: one may have been planted by another host (cookie tossing), and which
  // one the browser lists first says nothing about which is ours. None counts.
  if (values.size() != 1) return {};
  return loadCookieValue(values.front());
}

http::SessionContext SessionManager::loadCookieValue(const std::string& cookie_value) const {
  const auto id = cookie_.verify(cookie_value);
  if (!id) return {};
  const std::string key = SessionCookie::storageKey(*id);
  const auto stored = store_.get(key);
  if (!stored) return {};
  auto session = parse(*stored);
  if (!session) return {};
  if (session->expires_at <= clock_()) {
    // Expired by the configured lifetime, whatever the store's TTL still says.
    store_.remove(key);
    return {};
  }
  session->key = key;
  session->state = http::SessionContext::State::kActive;
  return *session;
}

IssuedSession SessionManager::store(const std::string& user_id) const {
  const std::string id = SessionCookie::newId();
  IssuedSession issued;
  auto& session = issued.context;
  session.state = http::SessionContext::State::kActive;
  session.key = SessionCookie::storageKey(id);
  session.user_id = user_id;
  session.csrf_token = newCsrfToken();
  session.created_at = clock_();
  const std::int64_t lifetime = user_id.empty() ? anonymous_lifetime_seconds_ : lifetime_seconds_;
  session.expires_at = session.created_at + lifetime;
  store_.set(session.key, serialise(session), state::Ttl(lifetime * 1000));
  issued.cookie_value = cookie_.sign(id);
  return issued;
}

IssuedSession SessionManager::create(const std::string& user_id) const { return store(user_id); }

IssuedSession SessionManager::rotate(const http::SessionContext& current,
                                     const std::string& user_id) const {
  if (current.active()) {
    store_.remove(current.key);
    ended(current);
  }
  return store(user_id);
}

void SessionManager::destroy(const http::SessionContext& session) const {
  if (!session.active()) return;
  store_.remove(session.key);
  ended(session);
}

void SessionManager::ended(const http::SessionContext& session) const {
  // Only a signed-in session has sockets that carry a user's messages.
  if (ends_ != nullptr && !session.user_id.empty()) ends_->sessionEnded(session.key);
}

std::string SessionManager::setCookieHeader(const IssuedSession& issued) const {
  const std::int64_t max_age = issued.context.expires_at - issued.context.created_at;
  return cookie_name_ + "=" + issued.cookie_value + "; Path=/; Max-Age=" + std::to_string(max_age) +
         "; HttpOnly; SameSite=Lax" + (secure_ ? "; Secure" : "");
}

std::string SessionManager::clearCookieHeader() const {
  return cookie_name_ + "=; Path=/; Max-Age=0; Expires=Thu, 01 Jan 1970 00:00:00 GMT; " +
         "HttpOnly; SameSite=Lax" + (secure_ ? "; Secure" : "");
}

}  // namespace skinpulse::auth
