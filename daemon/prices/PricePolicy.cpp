#include "prices/PricePolicy.hpp"

#include "prices/LatestPrices.hpp"

#include <utility>

namespace skinpulse::prices {

PricePolicy::PricePolicy(std::vector<SourceProfile> sources,
                         std::vector<std::string> reference_sources, bool exclude_outliers,
                         double outlier_factor)
    : sources_(std::move(sources)),
      reference_(std::move(reference_sources)),
      freshness_(sources_),
      exclude_outliers_(exclude_outliers),
      outlier_factor_(outlier_factor) {
  for (const auto& source : sources_) {
    if (source.enabled) enabled_.push_back(source.name);
  }
}

std::vector<std::string> PricePolicy::referenceOrder(
    const std::vector<std::string>& known_sources) const {
  return skinpulse::prices::referenceOrder(reference_, enabled_, known_sources);
}

std::vector<SourceLatest> PricePolicy::trustedLatest(std::vector<SourceLatest> latest) const {
  if (!exclude_outliers_) return latest;
  return withoutOutliers(std::move(latest));
}

}  // namespace skinpulse::prices
