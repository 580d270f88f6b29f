#include "catalog/CatalogSeeder.hpp"

#include "catalog/CatalogFile.hpp"
#include "common/Log.hpp"
#include "common/Time.hpp"

#include <chrono>

namespace skinpulse::catalog {

store::CatalogStore::SeedResult seedCatalog(store::CatalogStore& store, const std::string& file) {
  const auto started = std::chrono::steady_clock::now();
  const auto entries = readCatalogFile(file);
  const auto result = store.seed(entries, time::nowSeconds());
  const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                      std::chrono::steady_clock::now() - started)
                      .count();
  log::main().info("catalogue {}: {} items ({} new, {} updated, {} unchanged) in {} ms", file,
                   entries.size(), result.inserted, result.updated, result.unchanged, ms);
  return result;
}

}  // namespace skinpulse::catalog
