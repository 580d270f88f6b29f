#pragma once

#include "store/ConnectionPool.hpp"
#include "store/DatabaseUrl.hpp"

#include <memory>

namespace skinpulse::store::sqlite {

/// Opens the SQLite database of `url` (creating the file and its parent directory when
/// missing) and returns a pool of configured connections: WAL journal, synchronous=NORMAL,
/// a busy timeout, foreign keys on. A `:memory:` database lives in one connection (each
/// connection to :memory: is a database of its own), so its pool holds just that one.
std::unique_ptr<ConnectionPool> openPool(const DatabaseUrl& url);

}  // namespace skinpulse::store::sqlite
