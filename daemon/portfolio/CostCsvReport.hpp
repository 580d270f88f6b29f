#pragma once

// The answer of POST /api/v1/portfolio/cost-basis.csv (docs/api.md §23.3): every row with
// its match or refusal, the items the matched rows set, and the counts. The same shape
// for the dry run and the apply (`dry_run` says which).

#include "portfolio/CostCsvPlan.hpp"

#include <string>

namespace skinpulse::portfolio {

std::string costCsvReportJson(const CostCsvPlan& plan, bool dry_run);

}  // namespace skinpulse::portfolio
