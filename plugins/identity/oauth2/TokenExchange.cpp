#include "TokenExchange.hpp"

#include "skinpulse/sdk/url_encoding.hpp"

#include "BoundedJson.hpp"
#include "Outcome.hpp"
#include "Upstream.hpp"

#include <algorithm>
#include <cctype>

namespace skinpulse::plugins::oauth2 {
namespace {

using sdk::Status;

constexpr std::size_t kMaxTokenBytes = 4096;

// The token goes into an Authorization header: only visible ASCII may pass, so a hostile
// token endpoint cannot inject header lines into the profile requests.
bool isHeaderSafeToken(const std::string& token) {
  return !token.empty() && token.size() <= kMaxTokenBytes &&
         std::all_of(token.begin(), token.end(), [](char c) { return c > 0x20 && c < 0x7F; });
}

bool isBearer(const std::string& type) {
  std::string lower(type);
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return lower == "bearer";
}

TokenOutcome refused(Status::Code code, std::string message) {
  TokenOutcome outcome;
  outcome.refusal = identity::refusal(code, identity::kProviderError, std::move(message));
  return outcome;
}

}  // namespace

sdk::HttpRequest tokenRequest(const OAuth2Settings& settings, const std::string& code,
                              const std::string& redirect_uri, const std::string& code_verifier) {
  sdk::HttpRequest request;
  request.method = "POST";
  request.url = settings.token_url;
  request.headers = {{"Content-Type", "application/x-www-form-urlencoded"},
                     {"Accept", "application/json"}};
  request.body = sdk::encodeQuery({{"grant_type", "authorization_code"},
                                   {"code", code},
                                   {"redirect_uri", redirect_uri},
                                   {"code_verifier", code_verifier},
                                   {"client_id", settings.client_id},
                                   {"client_secret", settings.client_secret}});
  request.timeout = settings.timeout;
  request.max_body_bytes = settings.token_max_bytes;
  return request;
}

TokenOutcome exchange(sdk::HttpClient& http, const OAuth2Settings& settings,
                      const std::string& code, const std::string& redirect_uri,
                      const std::string& code_verifier) {
  const sdk::HttpResponse response =
      http.send(tokenRequest(settings, code, redirect_uri, code_verifier));
  if (response.error != sdk::HttpResponse::Error::kNone) {
    return refused(identity::httpFailureCode(response),
                   "token endpoint: " + identity::httpProblem(response));
  }
  const auto body = identity::parseObject(response.body);
  // An error answer names its `error` code (RFC 6749 §5.2); the description is free text
  // from the provider and is not repeated.
  if (body) {
    if (const auto error = identity::stringMember(*body, "error")) {
      return refused(Status::Code::kRejected,
                     "token endpoint refused: " + identity::cleanDisplayText(*error, 64));
    }
  }
  if (const std::string problem = identity::httpProblem(response); !problem.empty()) {
    return refused(identity::httpFailureCode(response), "token endpoint: " + problem);
  }
  if (!body)
    return refused(Status::Code::kMalformed, "token endpoint: answer is not a JSON object");
  const auto token = identity::stringMember(*body, "access_token");
  if (!token || !isHeaderSafeToken(*token)) {
    return refused(Status::Code::kMalformed, "token endpoint: no usable access_token");
  }
  if (body->has("token_type")) {
    const auto type = identity::stringMember(*body, "token_type");
    if (!type || !isBearer(*type)) {
      return refused(Status::Code::kMalformed, "token endpoint: token_type is not bearer");
    }
  }
  TokenOutcome outcome;
  outcome.access_token = *token;
  return outcome;
}

}  // namespace skinpulse::plugins::oauth2
