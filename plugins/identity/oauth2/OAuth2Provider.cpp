#include "OAuth2Provider.hpp"

#include "skinpulse/sdk/url_encoding.hpp"

#include "Crypto.hpp"
#include "FieldLookup.hpp"
#include "Outcome.hpp"
#include "Pkce.hpp"
#include "Profiles.hpp"
#include "TokenExchange.hpp"
#include "UrlParts.hpp"

namespace skinpulse::plugins::oauth2 {
namespace {

using sdk::Status;

constexpr const char* kStateKey = "state";
constexpr const char* kVerifierKey = "code_verifier";
constexpr const char* kRedirectKey = "redirect_uri";

// Authorization codes are short opaque strings; anything longer is not one.
constexpr std::size_t kMaxCodeBytes = 2048;

}  // namespace

OAuth2Provider::OAuth2Provider(sdk::Host& host)
    : host_(host), settings_(OAuth2Settings::from(host.config())) {}

sdk::AuthorizationStart OAuth2Provider::begin(const sdk::LoginContext& context) {
  sdk::AuthorizationStart start;
  if (!identity::isHttpUrl(context.callback_url)) {
    start.status = Status(Status::Code::kInvalidConfig, "callback URL is not an absolute URL");
    return start;
  }
  const std::string state = host_.randomToken(kRandomBytes);
  const std::string verifier = host_.randomToken(kRandomBytes);
  if (!isValidVerifier(verifier) || state.size() < 22) {
    start.status = Status(Status::Code::kInternal, "host random token has an unexpected shape");
    return start;
  }
  start.redirect_url = sdk::appendQuery(
      settings_.auth_url, sdk::encodeQuery({{"response_type", "code"},
                                            {"client_id", settings_.client_id},
                                            {"redirect_uri", context.callback_url},
                                            {"scope", settings_.scope},
                                            {"state", state},
                                            {"code_challenge", s256Challenge(verifier)},
                                            {"code_challenge_method", "S256"}}));
  start.flow = {{kStateKey, state}, {kVerifierKey, verifier}, {kRedirectKey, context.callback_url}};
  return start;
}

sdk::VerifiedIdentity OAuth2Provider::complete(const sdk::LoginContext& context,
                                               const sdk::Fields& params, const std::string&,
                                               const sdk::Fields& flow) {
  const auto expectedState = identity::singleField(flow, kStateKey);
  const auto verifier = identity::singleField(flow, kVerifierKey);
  const auto redirectUri = identity::singleField(flow, kRedirectKey);
  const auto state = identity::singleField(params, "state");
  // The state is checked before anything the callback claims, errors included: an
  // unsolicited callback must not even learn how the provider answered.
  if (!expectedState || expectedState->empty() || !state ||
      !identity::constantTimeEquals(*state, *expectedState)) {
    return identity::refusal(Status::Code::kRejected, identity::kStateMismatch,
                             "state missing or not the one issued for this session");
  }
  if (!verifier || !redirectUri || *redirectUri != context.callback_url) {
    return identity::refusal(Status::Code::kRejected, identity::kStateMismatch,
                             "the session's flow is incomplete or for another callback");
  }
  if (identity::countField(params, "error") > 0) {
    const std::string error = identity::singleField(params, "error").value_or("(repeated)");
    return identity::refusal(Status::Code::kRejected, identity::kProviderError,
                             "provider answered error " + identity::cleanDisplayText(error, 64));
  }
  const auto code = identity::singleField(params, "code");
  if (!code || code->empty() || code->size() > kMaxCodeBytes) {
    return identity::refusal(Status::Code::kRejected, identity::kProviderError,
                             "callback carries no single usable code");
  }

  const TokenOutcome token = exchange(host_.http(), settings_, *code, *redirectUri, *verifier);
  if (token.refusal) return *token.refusal;
  return settings_.flavour == Flavour::kUserinfo
             ? fetchUserinfoProfile(host_.http(), settings_, token.access_token)
             : fetchUserAndEmailsProfile(host_.http(), settings_, token.access_token);
}

}  // namespace skinpulse::plugins::oauth2
