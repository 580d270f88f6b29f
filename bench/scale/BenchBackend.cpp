#include "BenchBackend.hpp"

#include <stdexcept>

namespace skinpulse::bench {

std::unique_ptr<BenchBackend> makeSqliteBackend(const std::string& scratch_dir);
#ifdef BENCH_WITH_POSTGRES
std::unique_ptr<BenchBackend> makePostgresBackend(const std::string& url);
#endif

std::unique_ptr<BenchBackend> BenchBackend::create(const std::string& database,
                                                   const std::string& scratch_dir) {
  if (database == "sqlite") return makeSqliteBackend(scratch_dir);
  if (database.rfind("postgresql://", 0) == 0 || database.rfind("postgres://", 0) == 0) {
#ifdef BENCH_WITH_POSTGRES
    return makePostgresBackend(database);
#else
    throw std::runtime_error("built without PostgreSQL (SKINPULSE_WITH_POSTGRES=OFF)");
#endif
  }
  throw std::runtime_error("--database wants `sqlite` or a postgresql:// URL, not '" + database +
                           "'");
}

}  // namespace skinpulse::bench
