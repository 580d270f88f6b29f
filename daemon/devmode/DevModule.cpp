#include "devmode/DevModule.hpp"

#include "skinpulse/sdk/url_encoding.hpp"

#include "common/Log.hpp"
#include "http/HttpError.hpp"

#include <Poco/JSON/Parser.h>

#include <chrono>
#include <fstream>
#include <openssl/rand.h>
#include <sstream>
#include <stdexcept>

namespace skinpulse::devmode {
namespace {

constexpr std::size_t kMaxInventoryBytes = 4u * 1024u * 1024u;

std::string randomBytes(std::size_t size) {
  std::string out(size, '\0');
  if (RAND_bytes(reinterpret_cast<unsigned char*>(out.data()), static_cast<int>(size)) != 1) {
    throw std::runtime_error("dev: no random bytes for the provider's key");
  }
  return out;
}

std::string hex(const std::string& bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  for (const unsigned char c : bytes) {
    out += kDigits[c >> 4];
    out += kDigits[c & 15];
  }
  return out;
}

std::string readFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("dev: inventory_file " + path + " cannot be opened");
  std::ostringstream text;
  text << in.rdbuf();
  if (text.str().size() > kMaxInventoryBytes) {
    throw std::runtime_error("dev: inventory_file " + path + " is larger than 4 MiB");
  }
  return text.str();
}

}  // namespace

void checkInventoryPage(const std::string& body, const std::string& origin) {
  try {
    Poco::JSON::Parser parser;
    const auto root = parser.parse(body).extract<Poco::JSON::Object::Ptr>();
    if (!root || !root->isArray("assets") || !root->isArray("descriptions") ||
        root->optValue<int>("success", 0) != 1) {
      throw std::runtime_error("not an inventory page (assets, descriptions, success 1)");
    }
  } catch (const Poco::Exception& e) {
    throw std::runtime_error("dev: inventory_file " + origin + ": " + e.displayText());
  } catch (const std::exception& e) {
    throw std::runtime_error("dev: inventory_file " + origin + ": " + e.what());
  }
}

DevModule::DevModule(DevOptions options) : options_(std::move(options)) {
  const auto load = [](const std::string& path) {
    std::string body = readFile(path);
    checkInventoryPage(body, path);
    return std::make_shared<const std::string>(std::move(body));
  };
  accounts_.push_back({options_.player_id, options_.player_name, load(options_.inventory_file)});
  if (!options_.second_player_id.empty()) {
    accounts_.push_back({options_.second_player_id, options_.second_player_name,
                         load(options_.second_inventory_file)});
  }
  provider_ = std::make_unique<DevOpenIdProvider>(options_.openid_url, options_.base_url,
                                                  options_.claimed_host, options_.player_id,
                                                  randomBytes(32));
}

void DevModule::registerRoutes(http::Router& router) {
  log::main().warn(
      "dev: development mode is on: /dev/openid signs anyone in as {} without a password, "
      "/dev/inventory serves {} (never expose this daemon)",
      options_.player_id, options_.inventory_file);
  if (accounts_.size() > 1) {
    log::main().warn("dev: a second development account {} ({}) can be linked, inventory {}",
                     options_.second_player_id, options_.second_player_name,
                     options_.second_inventory_file);
  }
  // From memory and never blocking, so inline: the daemon's own openid2 plugin and
  // inventory fetcher call these while a worker of the pool waits for the answer. Inline
  // routes carry no session, so the check_authentication POST (a server-to-server call)
  // needs no CSRF token, as at the real provider.
  const http::RouteOptions get{.runs_inline = true, .no_store = true};
  const http::RouteOptions post{.accepts_body = true, .runs_inline = true, .no_store = true};
  router.add(
      "GET", "/dev/openid", [this](http::Request& q, http::Response& r) { login(q, r); }, get);
  router.add(
      "POST", "/dev/openid",
      [this](http::Request& q, http::Response& r) { checkAuthentication(q, r); }, post);
  router.add(
      "GET", "/dev/api/ISteamUser/GetPlayerSummaries/v0002/",
      [this](http::Request& q, http::Response& r) { playerSummaries(q, r); }, get);
  router.add(
      "GET", "/dev/inventory/:id/:app/:context",
      [this](http::Request& q, http::Response& r) { inventory(q, r); }, get);
}

bool DevModule::describeReadiness(common::JsonWriter& json) const {
  json.key("dev_mode").value(true);
  return true;
}

const DevModule::DevAccount* DevModule::accountOf(std::string_view player_id) const {
  for (const auto& account : accounts_) {
    if (account.player_id == player_id) return &account;
  }
  return nullptr;
}

void DevModule::login(http::Request& request, http::Response& response) const {
  const auto now = std::chrono::duration_cast<std::chrono::seconds>(
                       std::chrono::system_clock::now().time_since_epoch())
                       .count();
  // Checked first, whatever comes next: never a page for a request that is not ours.
  std::string location =
      provider_->positiveAssertion(request.query_params, now, hex(randomBytes(8)));
  const auto chosen = request.queryParam("dev_account");
  if (chosen) {
    const DevAccount* account = accountOf(*chosen);
    if (account == nullptr) {
      throw http::HttpError::invalidParameter("dev_account", "is not a development account");
    }
    location = provider_->positiveAssertion(request.query_params, now, hex(randomBytes(8)),
                                            account->player_id);
  } else if (accounts_.size() > 1) {
    // Signing in is always the first account (the quick start's one click); linking
    // another account is where the choice matters.
    // The relying party's return_to is its callback plus `?state=…`: compare the path.
    const std::string return_to = request.queryParam("openid.return_to").value_or("");
    const std::string_view path = std::string_view(return_to).substr(0, return_to.find('?'));
    const std::string_view login_suffix = "/login/callback";
    const bool login = path.size() >= login_suffix.size() &&
                       path.substr(path.size() - login_suffix.size()) == login_suffix;
    if (!login) return chooseAccount(request.query_params, response);
  }
  response.status = 302;
  response.content_type.clear();
  response.body.clear();
  response.setHeader("Location", location);
}

void DevModule::chooseAccount(const sdk::Fields& query, http::Response& response) const {
  const auto escape = [](const std::string& text) {
    std::string out;
    for (const char c : text) {
      if (c == '&')
        out += "&amp;";
      else if (c == '<')
        out += "&lt;";
      else if (c == '>')
        out += "&gt;";
      else if (c == '"')
        out += "&quot;";
      else
        out += c;
    }
    return out;
  };
  std::string links;
  for (const auto& account : accounts_) {
    sdk::Fields again = query;
    again.emplace_back("dev_account", account.player_id);
    // Relative to this page: the same endpoint, the same request, the account chosen.
    const std::string href = "?" + sdk::encodeQuery(again);
    links += "<li><a class=\"dev-account\" id=\"dev-account-" + account.player_id + "\" href=\"" +
             escape(href) + "\">" + escape(account.player_name) + " (" + account.player_id +
             ")</a></li>\n";
  }
  response.status = 200;
  response.content_type = "text/html; charset=utf-8";
  response.body =
      "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
      "<meta name=\"viewport\" content=\"width=device-width\">"
      "<title>Development sign-in</title></head><body>\n"
      "<h1>Development sign-in</h1>\n<p>Which development account?</p>\n<ul>\n" +
      links + "</ul>\n</body></html>\n";
}

void DevModule::checkAuthentication(http::Request& request, http::Response& response) {
  const auto form = sdk::parseQuery(request.body);
  const bool valid = form && provider_->verify(*form);
  response.status = 200;
  response.content_type = "text/plain; charset=utf-8";
  response.body = DevOpenIdProvider::verificationAnswer(valid);
}

void DevModule::playerSummaries(http::Request& request, http::Response& response) const {
  // The Web API's shape: players listed for the ids asked that exist (here: the
  // development accounts).
  common::JsonWriter json;
  // The Web API takes a comma-separated list of ids.
  const std::string asked = "," + request.queryParam("steamids").value_or("") + ",";
  json.beginObject().key("response").beginObject().key("players").beginArray();
  for (const auto& account : accounts_) {
    if (asked.find("," + account.player_id + ",") == std::string::npos) continue;
    json.beginObject()
        .key("steamid")
        .value(account.player_id)
        .key("personaname")
        .value(account.player_name)
        .endObject();
  }
  json.endArray().endObject().endObject();
  response.json(json.take());
}

void DevModule::inventory(http::Request& request, http::Response& response) const {
  if (request.path_params["app"] != "730" || request.path_params["context"] != "2") {
    throw http::HttpError::notFound();
  }
  response.status = 200;
  response.content_type = "application/json; charset=utf-8";
  const DevAccount* account = accountOf(request.path_params["id"]);
  if (account == nullptr) {
    // What the platform answers for an inventory it does not show.
    response.status = 403;
    response.body = "null";
    return;
  }
  // One page: no start_assetid is ever needed (no more_items in the file).
  response.body.clear();
  response.shared_body = account->inventory;
}

}  // namespace skinpulse::devmode
