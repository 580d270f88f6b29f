#pragma once

// The streaming write of a backfill (PriceStore::BackfillWriter) on the SQL stores: one
// transaction for the whole file, taken when the first chunk is ready. SQLite: one
// prepared INSERT reused for every point, bound column by column (no per-chunk SQL text,
// no Poco binding vectors); PostgreSQL: one COPY (postgres::CopyStream).

#include "store/ConnectionPool.hpp"
#include "store/PriceStore.hpp"
#include "store/WriteTransaction.hpp"

#include <memory>

namespace skinpulse::store {

/// The kv key of PriceStore::backfillRevision().
inline constexpr const char* kBackfillRevisionKey = "prices.backfill_revision";
/// Advances the backfill revision in `tx`, so the points and the revision appear together.
void advanceBackfillRevision(WriteTransaction& tx);
/// Clears the outlier flag of each point's stored key, in `tx`.
void clearOutlierFlags(WriteTransaction& tx, const std::vector<PricePoint>& points);

std::unique_ptr<PriceStore::BackfillWriter> openSqlBackfill(ConnectionPool& pool);

}  // namespace skinpulse::store
