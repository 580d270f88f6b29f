#pragma once

// AccessOptions: the [api] keys (accessOptionTable): the read budget of the public API
// per client and per API key, and the limits of the keys themselves (docs/api.md, "API
// keys and read budgets"; docs/adr/0028-api-keys-and-read-budgets.md).

#include "common/OptionTable.hpp"

namespace skinpulse::access {

struct AccessOptions {
  /// Reads per minute per client (http::rateLimitKey) without a key; 0: unlimited (the
  /// built-in default, so benchmarks and tests with their own configuration are not
  /// throttled; the packaged etc/ turns it on).
  int requests_per_minute = 0;
  /// Reads per minute per API key; 0: unlimited.
  int key_requests_per_minute = 0;
  /// Keys one user may hold.
  int max_keys_per_user = 10;
  /// Seconds between two reloads of the key directory: the bound after which a key
  /// created or revoked on another daemon is known here.
  int key_cache_seconds = 10;
  /// Seconds between two flushes of the per-key usage counters to the database.
  int usage_flush_seconds = 30;
};

const common::OptionTable<AccessOptions>& accessOptionTable();

}  // namespace skinpulse::access
