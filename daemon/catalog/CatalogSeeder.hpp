#pragma once

#include "store/CatalogStore.hpp"

#include <string>

namespace skinpulse::catalog {

/// Seeds the store from the catalogue data file (idempotent; ids stay stable) and logs
/// what changed. Throws std::runtime_error when the file is missing or malformed.
store::CatalogStore::SeedResult seedCatalog(store::CatalogStore& store, const std::string& file);

}  // namespace skinpulse::catalog
