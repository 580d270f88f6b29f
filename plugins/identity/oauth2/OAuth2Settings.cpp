#include "OAuth2Settings.hpp"

#include "UrlParts.hpp"

#include <stdexcept>

namespace skinpulse::plugins::oauth2 {
namespace {

std::string required(const sdk::Config& config, std::string_view key) {
  const auto value = config.get(key);
  if (!value || value->empty()) {
    throw std::invalid_argument(std::string(key) + ": missing (required)");
  }
  return *value;
}

std::string url(const sdk::Config& config, std::string_view key) {
  std::string value = required(config, key);
  if (!identity::isHttpUrl(value)) {
    throw std::invalid_argument(std::string(key) + ": not an absolute http(s) URL: \"" + value +
                                "\"");
  }
  return value;
}

}  // namespace

OAuth2Settings OAuth2Settings::from(const sdk::Config& config) {
  OAuth2Settings settings;
  const std::string flavour = required(config, "flavour");
  settings.client_id = required(config, "client_id");
  settings.client_secret = required(config, "client_secret");
  settings.auth_url = url(config, "auth_url");
  settings.token_url = url(config, "token_url");
  if (flavour == "idp-a") {
    settings.flavour = Flavour::kUserinfo;
    settings.userinfo_url = url(config, "userinfo_url");
    settings.scope = "openid email profile";
  } else if (flavour == "idp-b") {
    settings.flavour = Flavour::kUserAndEmails;
    settings.api_url = identity::withoutTrailingSlashes(url(config, "api_url"));
    settings.scope = "read:user user:email";
  } else {
    throw std::invalid_argument("flavour: must be idp-a or idp-b, got \"" + flavour + "\"");
  }
  return settings;
}

}  // namespace skinpulse::plugins::oauth2
