#pragma once

#include "store/ConnectionPool.hpp"

#include <filesystem>
#include <string>
#include <vector>

namespace skinpulse::store {

/// One file `NNN_name.sql` of a migrations directory.
struct MigrationFile {
  int version = 0;
  std::string name;  ///< "001_initial"
  std::filesystem::path path;
};

/// The migration files of `dir`, in version order; other files are ignored. Throws
/// std::runtime_error when the directory is missing, holds none, or two share a version.
std::vector<MigrationFile> listMigrations(const std::filesystem::path& dir);

/// Applies every migration of `dir` not yet recorded in schema_migrations, each in its
/// own transaction together with its record, in version order. Safe when several
/// daemons start at once on PostgreSQL (an advisory lock serialises them). Throws
/// std::runtime_error naming the file and statement that failed.
void applyMigrations(ConnectionPool& pool, const std::filesystem::path& dir);

/// Highest version recorded in schema_migrations (0 when none).
int schemaVersion(ConnectionPool& pool);

}  // namespace skinpulse::store
