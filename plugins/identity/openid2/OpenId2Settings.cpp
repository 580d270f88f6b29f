#include "OpenId2Settings.hpp"

#include "UrlParts.hpp"

#include <stdexcept>

namespace skinpulse::plugins::openid2 {
namespace {

bool isHostName(const std::string& host) {
  if (host.empty() || host.size() > 253) return false;
  for (const char c : host) {
    const bool allowed = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '.' ||
                         c == ':';  // ':' for a port, e.g. a test OP
    if (!allowed) return false;
  }
  return true;
}

}  // namespace

OpenId2Settings OpenId2Settings::from(const sdk::Config& config) {
  OpenId2Settings settings;
  settings.openid_url = config.getString("openid_url", "");
  if (!identity::isHttpUrl(settings.openid_url)) {
    throw std::invalid_argument("openid_url: not an absolute http(s) URL: \"" +
                                settings.openid_url + "\"");
  }
  settings.host = config.getString("host", "");
  if (!isHostName(settings.host)) {
    throw std::invalid_argument(
        "host: must be a lower-case host name such as steamcommunity.com, got \"" + settings.host +
        "\"");
  }
  settings.api_key = config.getString("api_key", "");
  settings.api_url = identity::withoutTrailingSlashes(config.getString("api_url", ""));
  if (!settings.api_key.empty() && !identity::isHttpUrl(settings.api_url)) {
    throw std::invalid_argument("api_url: not an absolute http(s) URL: \"" + settings.api_url +
                                "\"");
  }
  return settings;
}

}  // namespace skinpulse::plugins::openid2
