#pragma once

// KeysApi: a signed-in user's API keys (docs/api.md, "API keys and read budgets"):
//   POST   /api/v1/keys      {"name": "..."} → 201, the key shown this once
//   GET    /api/v1/keys      the user's keys with their usage
//   DELETE /api/v1/keys/:id  → 204; the key stops working here at once, on every other
//                            daemon within [api] key_cache_seconds
// Session and CSRF as every signed-in endpoint (the auth guard); never cached.

#include "access/KeyDirectory.hpp"
#include "http/Router.hpp"
#include "store/ApiKeyStore.hpp"

#include <functional>

namespace skinpulse::access {

inline constexpr std::size_t kMaxKeyNameBytes = 64;

class KeysApi {
 public:
  using Clock = std::function<std::int64_t()>;  ///< Unix seconds

  KeysApi(store::ApiKeyStore& store, KeyDirectory& directory, int max_keys_per_user,
          Clock clock = {});

  void registerRoutes(http::Router& router);

  void create(http::Request& request, http::Response& response);
  void list(http::Request& request, http::Response& response);
  void revoke(http::Request& request, http::Response& response);

 private:
  store::ApiKeyStore& store_;
  KeyDirectory& directory_;
  int max_keys_per_user_;
  Clock clock_;
};

/// The key name of a POST body: 1 to kMaxKeyNameBytes bytes of UTF-8 without control
/// characters, surrounding spaces trimmed. Throws common::MalformedBody /
/// common::InvalidField.
std::string keyNameOf(std::string_view body);

}  // namespace skinpulse::access
