// The callback of an OpenID 2.0 sign-in: the query the browser brings back, checked
// against the flow the session kept. Input: the callback query string.
#include "skinpulse/sdk/url_encoding.hpp"

#include "Assertion.hpp"
#include "OpenId2Settings.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

using namespace skinpulse::plugins::openid2;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const OpenId2Settings settings = [] {
    OpenId2Settings s;
    s.openid_url = "https://steamcommunity.com/openid/login";
    s.host = "steamcommunity.com";
    s.api_url = "https://api.steampowered.com";
    return s;
  }();
  const std::string realm = "https://skinpulse.example/";
  const std::string return_to = realm + "api/v1/auth/gameid/callback?state=abc";
  const skinpulse::sdk::Fields flow{{kStateKey, "abc"}, {kReturnToKey, return_to}};
  const std::string query(reinterpret_cast<const char*>(data), size);
  const auto params = skinpulse::sdk::parseQuery(query);
  if (!params) return 0;
  const std::string called = realm + "api/v1/auth/gameid/callback?" + query;
  const auto check = checkAssertion(settings, realm, *params, called, flow, 1795342500);
  if (check.assertion.has_value() == check.refusal.has_value()) __builtin_trap();
  if (check.assertion && check.assertion->platform_id.size() != 17) __builtin_trap();
  (void)calledUrlMatchesReturnTo(called, return_to);
  return 0;
}
