#pragma once

// One item's price history on PostgreSQL through libpq directly, with binary results.
//
// A 7-day chart is ~8,000 rows; Poco::Data extracts them cell by cell into five vectors
// and then copies them into PricePoints, ~2 ms on top of what the query costs
// (bench/README.md). Here the rows are decoded once, straight into PricePoints.

#include "store/Records.hpp"

#include <Poco/Data/Session.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace skinpulse::store::postgres {

/// Points of `item_id` with time > since (one source when given), ordered by time then
/// source. The server sorts: an item's points lie scattered over the table in insertion
/// order, and its bitmap scan (pages in physical order) plus an in-memory sort of a week
/// of points beat walking the primary key in order, which visits the heap at random
/// (7.7 ms against 3.9 ms for 8,000 points, bench/README.md).
std::vector<PricePoint> selectItemPoints(Poco::Data::Session& session, std::int64_t item_id,
                                         std::int64_t since,
                                         const std::optional<std::string>& source);

}  // namespace skinpulse::store::postgres
