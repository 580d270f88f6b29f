#include "access/QuotaGuard.hpp"

#include "access/ApiKey.hpp"
#include "common/Time.hpp"
#include "http/HttpError.hpp"

#include <string_view>

namespace skinpulse::access {
namespace {

constexpr std::string_view kApiPrefix = "/api/v1/";

// `path` is `prefix` or a path under it, segment by segment.
bool under(std::string_view path, std::string_view prefix) {
  return path.substr(0, prefix.size()) == prefix &&
         (path.size() == prefix.size() || path[prefix.size()] == '/');
}

[[noreturn]] void invalidKey(const char* detail) {
  throw http::HttpError(401, "invalid_api_key", detail,
                        {{"WWW-Authenticate", "Bearer error=\"invalid_token\""}});
}

}  // namespace

QuotaGuard::QuotaGuard(ReadBudget& clients, ReadBudget& keys, KeyDirectory& directory,
                       const http::TrustedProxies* proxies, Clock clock)
    : clients_(clients),
      keys_(keys),
      directory_(directory),
      proxies_(proxies),
      clock_(clock ? std::move(clock) : Clock([] { return time::nowSeconds(); })) {}

bool QuotaGuard::counts(const http::Request& request) {
  if (request.method != "GET" && request.method != "HEAD") return false;
  const std::string_view path = request.path;
  if (path.substr(0, kApiPrefix.size()) != kApiPrefix) return false;
  return !under(path, "/api/v1/auth") && !under(path, "/api/v1/ws");
}

void QuotaGuard::refuse(std::int64_t retry_after_seconds) {
  throw http::HttpError(429, "rate_limited", "too many API requests; slow down",
                        {{"Retry-After", std::to_string(retry_after_seconds)}});
}

void QuotaGuard::admitKey(const std::string& key) const {
  const auto entry = directory_.find(hashApiKey(key));
  if (!entry) {
    if (!directory_.loaded()) {
      // The keys could not be read yet: this one may well be valid.
      throw http::HttpError(503, "store_unavailable",
                            "API keys cannot be checked yet; try again shortly",
                            {{"Retry-After", "5"}});
    }
    invalid_keys_.fetch_add(1, std::memory_order_relaxed);
    invalidKey("unknown or revoked API key");
  }
  const auto decision = keys_.admit(entry->id);
  KeyDirectory::count(*entry, !decision.allowed, clock_());
  if (!decision.allowed) refuse(decision.retry_after_seconds);
}

void QuotaGuard::admit(http::Request& request, const http::RouteOptions& route) const {
  (void)route;
  if (!counts(request)) return;
  const Credential credential = parseAuthorization(request.header("Authorization"));
  switch (credential.kind) {
    case Credential::Kind::kMalformed:
      invalid_keys_.fetch_add(1, std::memory_order_relaxed);
      invalidKey("Authorization must be 'Bearer spk_...' with an API key");
    case Credential::Kind::kKey:
      admitKey(credential.key);
      return;
    case Credential::Kind::kNone:
      break;
  }
  if (clients_.limit() <= 0) {
    anonymous_requests_.fetch_add(1, std::memory_order_relaxed);
    return;
  }
  const std::string address =
      proxies_ != nullptr ? proxies_->clientAddress(request) : request.client_address;
  const auto decision = clients_.admit(http::rateLimitKey(address));
  if (!decision.allowed) {
    anonymous_limited_.fetch_add(1, std::memory_order_relaxed);
    refuse(decision.retry_after_seconds);
  }
  anonymous_requests_.fetch_add(1, std::memory_order_relaxed);
}

}  // namespace skinpulse::access
