#include "BoundedJson.hpp"
#include "Outcome.hpp"
#include "Profiles.hpp"
#include "Upstream.hpp"

#include <optional>

namespace skinpulse::plugins::oauth2 {
namespace {

using sdk::Status;

constexpr const char* kApiAccept = "application/vnd.github+json";

sdk::HttpRequest apiGet(const OAuth2Settings& settings, const std::string& path,
                        const std::string& access_token) {
  sdk::HttpRequest request = bearerGet(settings, settings.api_url + path, access_token, kApiAccept);
  request.headers.emplace_back("X-GitHub-Api-Version", "2022-11-28");
  return request;
}

struct PrimaryEmail {
  std::optional<std::string> verified_address;  ///< set when the primary is verified
  std::string problem;                          ///< set when the list is unusable
};

// Exactly one entry may be primary; it counts only when `verified` is literally true.
PrimaryEmail primaryEmail(const Poco::JSON::Array& emails) {
  PrimaryEmail result;
  bool seenPrimary = false;
  for (std::size_t i = 0; i < emails.size(); ++i) {
    const auto entry = emails.getObject(static_cast<unsigned>(i));
    if (!entry) {
      result.problem = "an entry of /user/emails is not an object";
      return result;
    }
    if (identity::boolMember(*entry, "primary").value_or(false) != true) continue;
    if (seenPrimary) {
      result.problem = "/user/emails lists more than one primary address";
      result.verified_address.reset();
      return result;
    }
    seenPrimary = true;
    const auto address = identity::stringMember(*entry, "email");
    if (address && isPlausibleEmail(*address) &&
        identity::boolMember(*entry, "verified").value_or(false)) {
      result.verified_address = *address;
    }
  }
  return result;
}

}  // namespace

sdk::VerifiedIdentity fetchUserAndEmailsProfile(sdk::HttpClient& http,
                                                const OAuth2Settings& settings,
                                                const std::string& access_token) {
  const sdk::HttpResponse userResponse = http.send(apiGet(settings, "/user", access_token));
  if (auto failure = upstreamFailure(userResponse, "/user")) return *failure;
  const auto user = identity::parseObject(userResponse.body);
  const auto id = user ? identity::integerMember(*user, "id") : std::nullopt;
  if (!id || *id <= 0) {
    return identity::refusal(Status::Code::kMalformed, identity::kProviderError,
                             "/user: no positive numeric id");
  }

  const sdk::HttpResponse emailsResponse =
      http.send(apiGet(settings, "/user/emails?per_page=100", access_token));
  if (auto failure = upstreamFailure(emailsResponse, "/user/emails")) return *failure;
  const auto emails = identity::parseArray(emailsResponse.body);
  if (!emails) {
    return identity::refusal(Status::Code::kMalformed, identity::kProviderError,
                             "/user/emails: answer is not a JSON array");
  }
  const PrimaryEmail primary = primaryEmail(*emails);
  if (!primary.problem.empty()) {
    return identity::refusal(Status::Code::kMalformed, identity::kProviderError, primary.problem);
  }
  if (!primary.verified_address) {
    return identity::refusal(Status::Code::kRejected, identity::kEmailUnverified,
                             "the provider lists no verified primary e-mail address");
  }

  sdk::VerifiedIdentity verified;
  verified.subject = std::to_string(*id);
  verified.email = *primary.verified_address;
  verified.email_verified = true;
  std::string name = identity::stringMember(*user, "name").value_or("");
  if (name.empty()) name = identity::stringMember(*user, "login").value_or("");
  verified.display_name = identity::cleanDisplayText(name, kMaxDisplayNameBytes);
  verified.avatar_url = safeAvatarUrl(identity::stringMember(*user, "avatar_url").value_or(""));
  return verified;
}

}  // namespace skinpulse::plugins::oauth2
