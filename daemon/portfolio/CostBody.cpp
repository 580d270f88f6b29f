#include "portfolio/CostBody.hpp"

#include "common/JsonInteger.hpp"
#include "common/Time.hpp"

namespace skinpulse::portfolio {

namespace {

constexpr std::int64_t kDay = 86400;

std::optional<std::int64_t> costOf(const Poco::Dynamic::Var& value) {
  const auto cents = centsPerUnit(value);
  if (!cents) throw InvalidHolding("cost_basis", centsPerUnitRule());
  return *cents;
}

std::optional<std::int64_t> acquiredOf(const Poco::Dynamic::Var& value, std::int64_t now) {
  if (value.isEmpty()) return std::nullopt;
  if (!value.isString()) {
    throw InvalidHolding("acquired_at",
                         "must be null or an ISO 8601 UTC time such as "
                         "\"2026-11-20T18:00:00Z\"");
  }
  const auto at = time::parseIso8601(value.extract<std::string>());
  if (!at) {
    throw InvalidHolding("acquired_at",
                         "must be an ISO 8601 UTC time such as "
                         "\"2026-11-20T18:00:00Z\"");
  }
  if (*at < kEarliestAcquiredAt || *at > now + kDay) {
    throw InvalidHolding("acquired_at", "must lie between 2012-01-01T00:00:00Z and tomorrow");
  }
  return at;
}

}  // namespace

std::optional<std::optional<std::int64_t>> centsPerUnit(const Poco::Dynamic::Var& value) {
  if (value.isEmpty()) return std::optional<std::int64_t>{};
  const auto cents = common::jsonInteger(value);
  if (!cents || *cents < 0 || *cents > kMaxCostBasisCents) return std::nullopt;
  return cents;
}

std::string centsPerUnitRule() {
  return "must be null or an integer number of cents in 0.." + std::to_string(kMaxCostBasisCents);
}

store::CostChange parseCostBody(std::string_view body, std::int64_t now) {
  const auto object = common::parseObjectBody(body);
  for (const auto& [name, value] : *object) {
    (void)value;
    if (name != "cost_basis" && name != "acquired_at") {
      // A hostile name is cut short: the detail echoes it.
      throw InvalidHolding(name.substr(0, 64),
                           "is not a field you can change (cost_basis, acquired_at)");
    }
  }
  store::CostChange change;
  if (object->has("cost_basis")) {
    change.set_cost_basis = true;
    change.cost_basis = costOf(object->get("cost_basis"));
  }
  if (object->has("acquired_at")) {
    change.set_acquired_at = true;
    change.acquired_at = acquiredOf(object->get("acquired_at"), now);
  }
  if (!change.set_cost_basis && !change.set_acquired_at) {
    throw InvalidHolding("cost_basis", "or acquired_at is required");
  }
  return change;
}

}  // namespace skinpulse::portfolio
