#pragma once

// CostBody: the body of PATCH /api/v1/portfolio/holdings/:item_id (docs/api.md §15),
// `{"cost_basis":1234,"acquired_at":"2026-11-20T18:00:00Z"}`. Each field is optional (absent:
// unchanged) and nullable (null: cleared); at least one must be present.
//   cost_basis: integer cents per unit, 0..kMaxCostBasisCents.
//   acquired_at: an ISO 8601 UTC time, from kEarliestAcquiredAt to one day after now.
// Not a JSON object → common::MalformedBody (400 invalid_body); a bad, unknown or
// missing field → InvalidHolding (422 invalid_holding, the detail names the field).

#include "common/JsonBody.hpp"
#include "store/Records.hpp"

#include <Poco/Dynamic/Var.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace skinpulse::portfolio {

class InvalidHolding : public common::InvalidField {
 public:
  using common::InvalidField::InvalidField;
};

/// Ten billion dollars a unit: far above any item ever sold, far below int64 overflow
/// when multiplied by a quantity.
inline constexpr std::int64_t kMaxCostBasisCents = 1'000'000'000'000;
/// 2012-01-01T00:00:00Z: before the game's first tradable items.
inline constexpr std::int64_t kEarliestAcquiredAt = 1'325'376'000;

store::CostChange parseCostBody(std::string_view body, std::int64_t now);

/// An amount per unit in a body (a cost basis, a sale price): null → an empty amount; an
/// integer of cents in 0..kMaxCostBasisCents → it. Anything else → no value at all (the
/// caller refuses the field with centsPerUnitRule()).
std::optional<std::optional<std::int64_t>> centsPerUnit(const Poco::Dynamic::Var& value);
/// "must be null or an integer number of cents in 0..<max>": the refusal's words.
std::string centsPerUnitRule();

}  // namespace skinpulse::portfolio
