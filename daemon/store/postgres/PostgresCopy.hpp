#pragma once

// Bulk insert of price points on PostgreSQL through COPY.
//
// Multi-row INSERTs bound through Poco cost a parse, a plan and thousands of bound
// parameters per 1,000 rows: a 100,000-point cycle ran at 18 % of the raw COPY rate
// (bench/README.md). COPY into a per-connection temporary table followed by one
// INSERT ... SELECT ... ON CONFLICT DO NOTHING keeps the store's semantics (the first
// observation of a key wins, duplicates inside the batch included) at ~60 % of it.

#include "store/Records.hpp"

#include <Poco/Data/Session.h>

#include <cstddef>
#include <vector>

namespace skinpulse::store::postgres {

/// Inserts `points` inside the caller's open transaction on `session`; returns how many
/// were new. A point whose item is not in `items` refuses the whole batch. Throws
/// std::runtime_error with the reason on failure (the caller's transaction then rolls
/// back).
std::size_t copyInsertPoints(Poco::Data::Session& session, const std::vector<PricePoint>& points);

}  // namespace skinpulse::store::postgres
