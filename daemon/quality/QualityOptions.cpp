#include "quality/QualityOptions.hpp"

#include <cstdio>
#include <cstdlib>

namespace skinpulse::quality {

const common::OptionTable<QualityOptions>& qualityOptionTable() {
  using T = common::OptionType;
  static const common::OptionTable<QualityOptions> table = {
      // A decimal, which the table does not type: read by readQualityOptions.
      {{"quality.outlier_factor", T::kText, 0, 0, nullptr, "3",
        "A price outside [m / f, m × f] is an outlier: m is the median of the other sources' "
        "fresh prices of the item (3 or more fresh sources) or the same source's previous "
        "point (fewer). A decimal number above 1, at most 100 (docs/api.md §12)."}},
      {{"quality.exclude_outliers", T::kBoolean, 0, 0, nullptr, "true",
        "Leave points flagged as outliers out of metrics, rankings, candles, the consensus "
        "price and portfolio valuation. They are flagged, stored and shown in history either "
        "way."},
       &QualityOptions::exclude_outliers},
  };
  return table;
}

double readDecimal(const common::OptionReader& read, const std::string& key, double min,
                   double max) {
  const std::string text = read.text(key);
  bool dot = false;
  bool digit = false;
  for (const char c : text) {
    if (c == '.' && !dot) {
      dot = true;
    } else if (c >= '0' && c <= '9') {
      digit = true;
    } else {
      digit = false;
      break;
    }
  }
  // At most 12 characters: no value that needs them, and strtod then never overflows.
  if (!digit || text.size() > 12) read.fail(key, "must be a decimal number, not '" + text + "'");
  const double value = std::strtod(text.c_str(), nullptr);
  if (value < min || value > max) {
    char range[64];
    std::snprintf(range, sizeof range, "must be between %g and %g", min, max);
    read.fail(key, range);
  }
  return value;
}

QualityOptions readQualityOptions(const common::OptionReader& read) {
  QualityOptions options;
  common::readOptions(qualityOptionTable(), read, options);
  if (read.present("quality.outlier_factor")) {
    options.outlier_factor = readDecimal(read, "quality.outlier_factor", 1.0, 100.0);
    if (options.outlier_factor <= 1.0) read.fail("quality.outlier_factor", "must be above 1");
  }
  return options;
}

}  // namespace skinpulse::quality
