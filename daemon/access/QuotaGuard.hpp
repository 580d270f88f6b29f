#pragma once

// QuotaGuard: the read budget of the public API (docs/api.md, "API keys and read
// budgets"). It runs first in the server's GuardChain, before the auth guard, on every
// routed request, and looks only at reads: GET and HEAD under /api/v1, except
// /api/v1/auth (its own rate limit) and the WebSocket handshake /api/v1/ws (its own caps).
// /healthz, /readyz and the dashboard's files are not under /api/v1 and are never
// counted; /api/v1/openapi.json is a read like any other.
//
// A read that presents `Authorization: Bearer <key>` is counted against that key's budget
// ([api] key_requests_per_minute), wherever it comes from; a malformed header or a key
// this daemon does not know answers 401 invalid_api_key. Any other read is counted against
// its client (http::rateLimitKey of the client address; [api] requests_per_minute). Over
// budget: 429 rate_limited with Retry-After. A key grants nothing else: the auth guard
// after this one still decides sessions and CSRF from the cookie alone.
//
// Runs on the HTTP event loops for inline routes: no I/O here, only the in-process
// ReadBudget and KeyDirectory.

#include "access/KeyDirectory.hpp"
#include "access/ReadBudget.hpp"
#include "http/ClientAddress.hpp"
#include "http/RequestGuard.hpp"

#include <atomic>
#include <cstdint>
#include <functional>

namespace skinpulse::access {

class QuotaGuard final : public http::RequestGuard {
 public:
  using Clock = std::function<std::int64_t()>;  ///< Unix seconds (last_used_at)

  /// `proxies` null: the client is the peer address (no trusted proxies configured).
  QuotaGuard(ReadBudget& clients, ReadBudget& keys, KeyDirectory& directory,
             const http::TrustedProxies* proxies, Clock clock = {});

  void admit(http::Request& request, const http::RouteOptions& route) const override;

  /// Whether `request` is a read the budget counts (method and path only).
  static bool counts(const http::Request& request);

  /// Reads without a key since start: admitted / refused (for /metrics).
  std::int64_t anonymousRequests() const { return anonymous_requests_.load(); }
  std::int64_t anonymousLimited() const { return anonymous_limited_.load(); }
  std::int64_t invalidKeys() const { return invalid_keys_.load(); }

  /// Set once the module knows the auth module's proxies (after every module is built).
  void setProxies(const http::TrustedProxies* proxies) { proxies_ = proxies; }

 private:
  [[noreturn]] static void refuse(std::int64_t retry_after_seconds);
  void admitKey(const std::string& key) const;

  ReadBudget& clients_;
  ReadBudget& keys_;
  KeyDirectory& directory_;
  const http::TrustedProxies* proxies_;
  Clock clock_;
  mutable std::atomic<std::int64_t> anonymous_requests_{0};
  mutable std::atomic<std::int64_t> anonymous_limited_{0};
  mutable std::atomic<std::int64_t> invalid_keys_{0};
};

}  // namespace skinpulse::access
