// Test plugin: an identity provider whose flow is one random state value.

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

class GoodIdentity final : public sdk::IdentityProvider {
 public:
  explicit GoodIdentity(sdk::Host& host) : host_(host) {}

  std::string protocol() const override { return "oauth2"; }

  sdk::AuthorizationStart begin(const sdk::LoginContext& context) override {
    sdk::AuthorizationStart start;
    const std::string state = host_.randomToken(16);
    start.redirect_url =
        "https://idp.test/authorize?state=" + state + "&redirect_uri=" + context.callback_url;
    start.flow = {{"state", state}};
    return start;
  }

  sdk::VerifiedIdentity complete(const sdk::LoginContext&, const sdk::Fields& params,
                                 const std::string&, const sdk::Fields& flow) override {
    sdk::VerifiedIdentity identity;
    const std::string state = findField(params, "state");
    if (state.empty() || state != findField(flow, "state")) {
      identity.status = sdk::Status(sdk::Status::Code::kRejected, "state mismatch");
      identity.error_code = "state_mismatch";
      return identity;
    }
    identity.subject = "user-1";
    identity.display_name = "Test User";
    return identity;
  }

 private:
  sdk::Host& host_;
};

const skinpulse_config_key kKeys[] = {{"client_id", "OAuth client id", 0}};

}  // namespace

SKINPULSE_DECLARE_PLUGIN(IdentityProvider, GoodIdentity, "good", "0.2.0", "test identity", kKeys)
