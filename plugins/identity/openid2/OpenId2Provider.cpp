#include "OpenId2Provider.hpp"

#include "skinpulse/sdk/url_encoding.hpp"

#include "Assertion.hpp"
#include "DirectVerification.hpp"
#include "KeyValueForm.hpp"
#include "PlayerSummaries.hpp"
#include "ResponseNonce.hpp"
#include "UrlParts.hpp"

namespace skinpulse::plugins::openid2 {
namespace {

using sdk::Status;

constexpr std::size_t kStateBytes = 32;

}  // namespace

OpenId2Provider::OpenId2Provider(sdk::Host& host)
    : host_(host), settings_(OpenId2Settings::from(host.config())) {}

sdk::AuthorizationStart OpenId2Provider::begin(const sdk::LoginContext& context) {
  sdk::AuthorizationStart start;
  const std::string realm = identity::realmOf(context.realm);
  const identity::SplitUrl callback = identity::splitUrl(context.callback_url);
  if (!callback.query.empty() || !identity::isUnderRealm(context.callback_url, realm)) {
    start.status = Status(Status::Code::kInvalidConfig,
                          "callback URL must lie under the realm (BASE_URL) and have no query");
    return start;
  }
  const std::string state = host_.randomToken(kStateBytes);
  const std::string returnTo =
      sdk::appendQuery(context.callback_url, sdk::encodeQuery({{"state", state}}));
  start.redirect_url = sdk::appendQuery(
      settings_.openid_url, sdk::encodeQuery({{"openid.ns", std::string(kOpenIdNamespace)},
                                              {"openid.mode", "checkid_setup"},
                                              {"openid.return_to", returnTo},
                                              {"openid.realm", realm},
                                              {"openid.identity", kIdentifierSelect},
                                              {"openid.claimed_id", kIdentifierSelect}}));
  start.flow = {{kStateKey, state}, {kReturnToKey, returnTo}};
  return start;
}

sdk::VerifiedIdentity OpenId2Provider::complete(const sdk::LoginContext& context,
                                                const sdk::Fields& params,
                                                const std::string& called_url,
                                                const sdk::Fields& flow) {
  const AssertionCheck check = checkAssertion(settings_, identity::realmOf(context.realm), params,
                                              called_url, flow, host_.clock().nowUnixSeconds());
  if (check.refusal) return *check.refusal;
  const CheckedAssertion& assertion = *check.assertion;
  if (auto refused = verify(host_.http(), settings_, assertion.openid_fields)) return *refused;

  sdk::VerifiedIdentity verified;
  verified.subject = assertion.platform_id;
  verified.replay_key = assertion.response_nonce;
  verified.replay_window_seconds = kReplayWindowSeconds;
  if (const auto profile = lookupProfile(host_, settings_, assertion.platform_id)) {
    verified.display_name = profile->name;
    verified.avatar_url = profile->avatar_url;
  }
  return verified;
}

}  // namespace skinpulse::plugins::openid2
