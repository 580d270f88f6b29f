#include "BoundedJson.hpp"
#include "Outcome.hpp"
#include "Profiles.hpp"
#include "Upstream.hpp"

namespace skinpulse::plugins::oauth2 {
namespace {

using sdk::Status;

constexpr std::size_t kMaxSubjectBytes = 255;

// OIDC says boolean; some providers send the string "true". Anything else is "not verified".
bool assertsVerified(const Poco::JSON::Object& claims) {
  if (const auto flag = identity::boolMember(claims, "email_verified")) return *flag;
  const auto text = identity::stringMember(claims, "email_verified");
  return text && *text == "true";
}

}  // namespace

sdk::VerifiedIdentity fetchUserinfoProfile(sdk::HttpClient& http, const OAuth2Settings& settings,
                                           const std::string& access_token) {
  const sdk::HttpResponse response =
      http.send(bearerGet(settings, settings.userinfo_url, access_token, "application/json"));
  if (auto failure = upstreamFailure(response, "userinfo endpoint")) return *failure;
  const auto claims = identity::parseObject(response.body);
  if (!claims) {
    return identity::refusal(Status::Code::kMalformed, identity::kProviderError,
                             "userinfo endpoint: answer is not a JSON object");
  }
  const auto subject = identity::stringMember(*claims, "sub");
  if (!subject || subject->empty() || subject->size() > kMaxSubjectBytes ||
      identity::cleanDisplayText(*subject, kMaxSubjectBytes) != *subject) {
    return identity::refusal(Status::Code::kMalformed, identity::kProviderError,
                             "userinfo endpoint: no usable sub claim");
  }
  const auto email = identity::stringMember(*claims, "email");
  if (!email || !isPlausibleEmail(*email) || !assertsVerified(*claims)) {
    return identity::refusal(Status::Code::kRejected, identity::kEmailUnverified,
                             "the provider does not assert a verified e-mail address");
  }
  sdk::VerifiedIdentity verified;
  verified.subject = *subject;
  verified.email = *email;
  verified.email_verified = true;
  verified.display_name = identity::cleanDisplayText(
      identity::stringMember(*claims, "name").value_or(""), kMaxDisplayNameBytes);
  verified.avatar_url = safeAvatarUrl(identity::stringMember(*claims, "picture").value_or(""));
  return verified;
}

}  // namespace skinpulse::plugins::oauth2
