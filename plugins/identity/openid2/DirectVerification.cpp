#include "DirectVerification.hpp"

#include "skinpulse/sdk/url_encoding.hpp"

#include "KeyValueForm.hpp"
#include "Outcome.hpp"

namespace skinpulse::plugins::openid2 {

using sdk::Status;

sdk::HttpRequest checkAuthenticationRequest(const OpenId2Settings& settings,
                                            const sdk::Fields& openid_fields) {
  sdk::Fields body = openid_fields;
  for (auto& [name, value] : body) {
    if (name == "openid.mode") value = "check_authentication";
  }
  sdk::HttpRequest request;
  request.method = "POST";
  request.url = settings.openid_url;
  request.headers = {{"Content-Type", "application/x-www-form-urlencoded"}};
  request.body = sdk::encodeQuery(body);
  request.timeout = settings.timeout;
  request.max_body_bytes = settings.verify_max_bytes;
  return request;
}

std::optional<sdk::VerifiedIdentity> verify(sdk::HttpClient& http, const OpenId2Settings& settings,
                                            const sdk::Fields& openid_fields) {
  const sdk::HttpResponse response = http.send(checkAuthenticationRequest(settings, openid_fields));
  if (response.error != sdk::HttpResponse::Error::kNone || response.status != 200) {
    const std::string problem = identity::httpProblem(response);
    return identity::refusal(
        response.error == sdk::HttpResponse::Error::kTooLarge ? Status::Code::kTooLarge
                                                              : Status::Code::kUnavailable,
        identity::kProviderError,
        "check_authentication: " +
            (problem.empty() ? "HTTP status " + std::to_string(response.status) : problem));
  }
  if (!assertsValid(response.body)) {
    return identity::refusal(Status::Code::kRejected, identity::kVerificationFailed,
                             "check_authentication: the OP did not confirm the assertion");
  }
  return std::nullopt;
}

}  // namespace skinpulse::plugins::openid2
