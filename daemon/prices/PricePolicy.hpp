#pragma once

// PricePolicy: which prices the daemon trusts and in what order it prefers them — the
// one place that decides it for every consumer (items, candles, metrics, rankings,
// cross-market quality, portfolio valuation, alerts, ingest's outlier flags). Built once
// by app/ from the configuration: the source instances ([source.NAME] enabled,
// interval_seconds, fresh_seconds, kind, fee_percent), [metrics] reference_sources and
// [quality] exclude_outliers and outlier_factor (docs/api.md §3.1, §12). Immutable after
// construction: any thread may ask.

#include "prices/Freshness.hpp"
#include "prices/LatestPrices.hpp"
#include "store/Records.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace skinpulse::prices {

class PricePolicy {
 public:
  PricePolicy() = default;
  /// `sources`: every configured source instance in configuration order, enabled or not.
  /// `reference_sources`: [metrics] reference_sources (empty: the default order).
  PricePolicy(std::vector<SourceProfile> sources, std::vector<std::string> reference_sources,
              bool exclude_outliers, double outlier_factor);

  /// Every configured source instance in configuration order.
  const std::vector<SourceProfile>& sources() const { return sources_; }
  /// The enabled source instances' names, in configuration order.
  const std::vector<std::string>& enabledSources() const { return enabled_; }
  /// [metrics] reference_sources as configured (empty: unset).
  const std::vector<std::string>& configuredReferenceSources() const { return reference_; }
  /// The reference order of docs/api.md §3.1 over `known_sources` (every source name the
  /// daemon has prices of): the configured order when set, else the enabled instances in
  /// configuration order followed by the other known names, alphabetically.
  std::vector<std::string> referenceOrder(const std::vector<std::string>& known_sources) const;

  /// How long each source's latest price stays fresh (docs/api.md §12).
  const Freshness& freshness() const { return freshness_; }
  /// [quality] exclude_outliers: flagged points count nowhere a price is read.
  bool excludeOutliers() const { return exclude_outliers_; }
  /// [quality] outlier_factor: a point outside [m / f, m × f] of its comparison price is
  /// flagged at ingest.
  double outlierFactor() const { return outlier_factor_; }

  /// Whether `point` counts at `now`: fresh, and not flagged when outliers are excluded.
  bool trusts(const store::PricePoint& point, std::int64_t now) const {
    return !(exclude_outliers_ && point.outlier) && freshness_.fresh(point, now);
  }
  /// Whether a flagged point must be left out (freshness aside).
  bool drops(const store::PricePoint& point) const { return exclude_outliers_ && point.outlier; }
  /// The latest prices a value may be taken from: when outliers are excluded, each
  /// flagged newest point replaced by its source's trusted price, or dropped without one
  /// (withoutOutliers()); unchanged otherwise.
  std::vector<SourceLatest> trustedLatest(std::vector<SourceLatest> latest) const;

 private:
  std::vector<SourceProfile> sources_;
  std::vector<std::string> enabled_;
  std::vector<std::string> reference_;
  Freshness freshness_;
  bool exclude_outliers_ = true;
  double outlier_factor_ = 3.0;
};

}  // namespace skinpulse::prices
