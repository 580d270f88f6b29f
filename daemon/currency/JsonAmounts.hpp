#pragma once

// Converts the amounts inside a JSON body the daemon rendered beforehand in USD cents
// (the pre-rendered Volatility objects and volatile rankings of metrics/MetricsSnapshot):
// the numbers at the given key paths become integer minor units of the conversion's
// currency, and each object at the top (the body itself, or each element of a top-level
// array) gains `"currency":"XXX"`. Our own renderer's output only: a number is replaced
// where it stands, strings are skipped exactly, nothing else is touched.

#include "currency/Conversion.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace skinpulse::currency {

/// `paths` are dotted key paths from a top-level object ("current_price",
/// "bollinger.upper"). A path whose value is not a number (null) is left as it is.
/// Returns `json` unchanged when the conversion was not requested.
std::string convertJsonAmounts(std::string_view json, const Conversion& money,
                               const std::vector<std::string_view>& paths);

}  // namespace skinpulse::currency
