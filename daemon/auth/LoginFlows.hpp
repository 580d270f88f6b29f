#pragma once

// LoginFlows: the values a provider plugin asks the host to keep between begin() and the
// callback (state, PKCE verifier, ...), stored under the caller's session, single use
// (taken atomically by the callback) and valid for 10 minutes (docs/api.md §5).

#include "skinpulse/sdk/types.hpp"

#include "http/SessionContext.hpp"
#include "state/SharedStore.hpp"

#include <optional>
#include <string>

namespace skinpulse::auth {

class LoginFlows {
 public:
  static constexpr std::int64_t kLifetimeSeconds = 600;

  explicit LoginFlows(state::SharedStore& store) : store_(store) {}

  /// Keeps `flow` for the flow `name` ("idp-a", "gameid:link", ...) of `session`,
  /// replacing an earlier unfinished one.
  void put(const http::SessionContext& session, const std::string& name,
           const sdk::Fields& flow) const;
  /// The flow, removed so it cannot be used twice; nullopt when absent or expired.
  std::optional<sdk::Fields> take(const http::SessionContext& session,
                                  const std::string& name) const;

 private:
  static std::string key(const http::SessionContext& session, const std::string& name);

  state::SharedStore& store_;
};

}  // namespace skinpulse::auth
