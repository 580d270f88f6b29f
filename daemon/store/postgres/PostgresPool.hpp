#pragma once

#include "store/ConnectionPool.hpp"
#include "store/DatabaseUrl.hpp"

#include <memory>

namespace skinpulse::store::postgres {

/// Connects to the PostgreSQL database of `url` (once, so a wrong address or password
/// fails here) and returns a pool of connections to it.
std::unique_ptr<ConnectionPool> openPool(const DatabaseUrl& url);

}  // namespace skinpulse::store::postgres
