#pragma once

// How json_http finds items and their fields in an upstream's JSON document: the mapping
// keys of plugins/sources/json_http/README.md (items_path, name_field, price_field,
// price_unit, volume_field, listings_field, time_field, image_field, currency). The reading
// itself is the shared list reader's (plugins/sources/common/FeedMapping.hpp, simdjson):
// json_http is its configurable front, the bundled list plugins its fixed ones.

#include "FeedMapping.hpp"
#include "ListFeed.hpp"

namespace skinpulse::plugins::json_http {

using support::FieldPath;
using support::Mapping;
using support::parseIsoTime;
using support::parsePointer;
using support::PriceUnit;
using support::RowCounts;

}  // namespace skinpulse::plugins::json_http
