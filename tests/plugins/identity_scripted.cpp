// Test plugin: an identity provider that the browser-side test script drives. begin()
// sends the browser to `auth_url` with a random state kept in the flow; complete() checks
// the state and then asserts whatever the callback's query says, so integration tests can
// exercise every host-side path (verified or unverified e-mail, platform ids, replay keys,
// provider errors) without a real provider:
//   ?state=S&subject=X&email=E&verified=1&name=N&avatar=A&replay=K&error=CODE
// It accepts every key the daemon passes to oauth2 and openid2 instances.

#include "skinpulse/sdk/sdk.hpp"

#include <string>

namespace {

namespace sdk = skinpulse::sdk;

std::string findField(const sdk::Fields& fields, const std::string& name) {
  for (const auto& [key, value] : fields) {
    if (key == name) return value;
  }
  return {};
}

class ScriptedIdentity final : public sdk::IdentityProvider {
 public:
  // An instance configured with openid_url (gameid) plays OpenID 2.0, otherwise OAuth 2.0.
  explicit ScriptedIdentity(sdk::Host& host)
      : host_(host),
        protocol_(host.config().get("openid_url") ? "openid2" : "oauth2"),
        auth_url_(host.config().getString(
            "openid_url", host.config().getString("auth_url", "https://idp.test/authorize"))) {}

  std::string protocol() const override { return protocol_; }

  sdk::AuthorizationStart begin(const sdk::LoginContext& context) override {
    sdk::AuthorizationStart start;
    const std::string state = host_.randomToken(16);
    start.redirect_url = auth_url_ + "?state=" + state + "&redirect_uri=" + context.callback_url;
    start.flow = {{"state", state}, {"callback_url", context.callback_url}};
    return start;
  }

  sdk::VerifiedIdentity complete(const sdk::LoginContext& context, const sdk::Fields& params,
                                 const std::string& called_url, const sdk::Fields& flow) override {
    sdk::VerifiedIdentity identity;
    const std::string state = findField(params, "state");
    if (state.empty() || state != findField(flow, "state") ||
        context.callback_url != findField(flow, "callback_url") ||
        called_url.rfind(context.callback_url + "?", 0) != 0) {
      identity.status = sdk::Status(sdk::Status::Code::kRejected, "state mismatch");
      identity.error_code = "state_mismatch";
      return identity;
    }
    if (const auto error = findField(params, "error"); !error.empty()) {
      identity.status = sdk::Status(sdk::Status::Code::kRejected, "provider said " + error);
      identity.error_code = error;
      return identity;
    }
    identity.subject = findField(params, "subject");
    identity.email = findField(params, "email");
    identity.email_verified = findField(params, "verified") == "1";
    identity.display_name = findField(params, "name");
    identity.avatar_url = findField(params, "avatar");
    identity.replay_key = findField(params, "replay");
    identity.replay_window_seconds = 600;
    return identity;
  }

 private:
  sdk::Host& host_;
  std::string protocol_;
  std::string auth_url_;
};

const skinpulse_config_key kKeys[] = {
    {"flavour", "idp-a or idp-b", 0}, {"client_id", "ignored", 0},
    {"client_secret", "ignored", 0},  {"auth_url", "where begin() redirects", 0},
    {"token_url", "ignored", 0},      {"userinfo_url", "ignored", 0},
    {"api_url", "ignored", 0},        {"openid_url", "openid2 instances redirect here", 0},
    {"host", "ignored", 0},           {"api_key", "ignored", 0},
};

}  // namespace

SKINPULSE_DECLARE_PLUGIN(IdentityProvider, ScriptedIdentity, "scripted", "0.1.0",
                         "test identity driven by its callback query", kKeys)
