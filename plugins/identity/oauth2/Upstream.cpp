#include "Upstream.hpp"

#include "Outcome.hpp"
#include "UrlParts.hpp"

#include <algorithm>

namespace skinpulse::plugins::oauth2 {

sdk::HttpRequest bearerGet(const OAuth2Settings& settings, std::string url,
                           const std::string& access_token, std::string accept) {
  sdk::HttpRequest request;
  request.method = "GET";
  request.url = std::move(url);
  request.headers = {{"Authorization", "Bearer " + access_token}, {"Accept", std::move(accept)}};
  request.timeout = settings.timeout;
  request.max_body_bytes = settings.profile_max_bytes;
  return request;
}

std::optional<sdk::VerifiedIdentity> upstreamFailure(const sdk::HttpResponse& response,
                                                     std::string_view what) {
  const std::string problem = identity::httpProblem(response);
  if (problem.empty()) return std::nullopt;
  return identity::refusal(identity::httpFailureCode(response), identity::kProviderError,
                           std::string(what) + ": " + problem);
}

bool isPlausibleEmail(std::string_view email) {
  if (email.size() < 3 || email.size() > 254) return false;
  const auto at = email.find('@');
  if (at == 0 || at == std::string_view::npos || at + 1 == email.size()) return false;
  if (email.find('@', at + 1) != std::string_view::npos) return false;
  return std::none_of(email.begin(), email.end(), [](char c) {
    const auto byte = static_cast<unsigned char>(c);
    return byte <= 0x20 || byte == 0x7F;
  });
}

std::string safeAvatarUrl(std::string_view url) {
  if (url.size() > 2048 || !identity::isHttpUrl(url)) return {};
  return std::string(url);
}

}  // namespace skinpulse::plugins::oauth2
