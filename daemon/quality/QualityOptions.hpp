#pragma once

// QualityOptions: the [quality] keys (docs/api.md §12): how far a price may stray before
// it is an outlier, and whether outliers are left out of what the daemon computes.

#include "common/OptionTable.hpp"

#include <string>

namespace skinpulse::quality {

struct QualityOptions {
  /// [quality] outlier_factor: a point outside [m / f, m × f] of its comparison price is
  /// an outlier. A decimal number in (1, 100].
  double outlier_factor = 3.0;
  /// [quality] exclude_outliers: leave flagged points out of metrics, rankings, candles,
  /// consensus and valuation. Points are flagged either way.
  bool exclude_outliers = true;
};

const common::OptionTable<QualityOptions>& qualityOptionTable();

/// Reads the [quality] section (the table's bound keys and the decimal factor).
QualityOptions readQualityOptions(const common::OptionReader& read);

/// A decimal number (digits, at most one '.') in [min, max]; ConfigError otherwise.
double readDecimal(const common::OptionReader& read, const std::string& key, double min,
                   double max);

}  // namespace skinpulse::quality
