#include "prices/KindSeries.hpp"

namespace skinpulse::prices {

std::string sourceForKind(const std::string& instance, sdk::PriceKind instance_kind,
                          sdk::PriceKind kind) {
  if (kind == instance_kind) return instance;
  return instance + "-" + std::string(sdk::priceKindName(kind));
}

std::optional<KindSeries> kindSeriesOf(std::string_view source) {
  const auto dash = source.rfind('-');
  if (dash == std::string_view::npos || dash == 0) return std::nullopt;
  const auto kind = sdk::parsePriceKind(source.substr(dash + 1));
  if (!kind) return std::nullopt;
  return KindSeries{source.substr(0, dash), *kind};
}

}  // namespace skinpulse::prices
