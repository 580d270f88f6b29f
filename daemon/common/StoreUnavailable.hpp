#pragma once

// StoreUnavailable: a store the request depends on (the shared state store: sessions,
// locks, rate limits) cannot be reached or failed mid-operation. Thrown by the store
// (daemon/state), answered by the HTTP transport (daemon/http/Dispatcher) with
// 503 store_unavailable and Retry-After, so a caller fails closed without either layer
// knowing the other.

#include <stdexcept>

namespace skinpulse::common {

/// The message never carries a password or a stored value.
class StoreUnavailable : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace skinpulse::common
