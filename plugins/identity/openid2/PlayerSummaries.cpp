#include "PlayerSummaries.hpp"

#include "skinpulse/sdk/url_encoding.hpp"

#include "BoundedJson.hpp"
#include "Outcome.hpp"
#include "UrlParts.hpp"

namespace skinpulse::plugins::openid2 {
namespace {

constexpr std::size_t kMaxNameBytes = 200;
constexpr std::size_t kMaxAvatarBytes = 2048;

std::string avatarOf(const Poco::JSON::Object& player) {
  for (const char* key : {"avatarfull", "avatarmedium", "avatar"}) {
    const std::string url = identity::stringMember(player, key).value_or("");
    if (url.size() <= kMaxAvatarBytes && identity::isHttpUrl(url)) return url;
  }
  return {};
}

}  // namespace

sdk::HttpRequest playerSummariesRequest(const OpenId2Settings& settings,
                                        const std::string& platform_id) {
  sdk::HttpRequest request;
  request.url = settings.api_url + "/ISteamUser/GetPlayerSummaries/v0002/?" +
                sdk::encodeQuery({{"key", settings.api_key}, {"steamids", platform_id}});
  request.headers = {{"Accept", "application/json"}};
  request.timeout = settings.timeout;
  request.max_body_bytes = settings.profile_max_bytes;
  return request;
}

std::optional<PlayerProfile> profileFrom(const std::string& body, const std::string& platform_id) {
  const auto root = identity::parseObject(body);
  const auto response = root ? root->getObject("response") : nullptr;
  const auto players = response ? response->getArray("players") : nullptr;
  if (!players) return std::nullopt;
  for (std::size_t i = 0; i < players->size(); ++i) {
    const auto player = players->getObject(static_cast<unsigned>(i));
    if (!player || identity::stringMember(*player, "steamid") != platform_id) continue;
    PlayerProfile profile;
    profile.name = identity::cleanDisplayText(
        identity::stringMember(*player, "personaname").value_or(""), kMaxNameBytes);
    profile.avatar_url = avatarOf(*player);
    return profile;
  }
  return std::nullopt;
}

std::optional<PlayerProfile> lookupProfile(sdk::Host& host, const OpenId2Settings& settings,
                                           const std::string& platform_id) {
  if (settings.api_key.empty()) return std::nullopt;
  const sdk::HttpResponse response =
      host.http().send(playerSummariesRequest(settings, platform_id));
  if (const std::string problem = identity::httpProblem(response); !problem.empty()) {
    host.logger().warn("player summaries unavailable (" + problem +
                       "); signing in without a profile");
    return std::nullopt;
  }
  auto profile = profileFrom(response.body, platform_id);
  if (!profile) host.logger().warn("player summaries did not list the signed-in account");
  return profile;
}

}  // namespace skinpulse::plugins::openid2
