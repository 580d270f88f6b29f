#include "plugin/PluginKind.hpp"

namespace skinpulse::plugin {

std::string_view kindName(PluginKind kind) {
  switch (kind) {
    case PluginKind::kSource:
      return "source";
    case PluginKind::kIdentity:
      return "identity";
    case PluginKind::kMetric:
      return "metric";
    case PluginKind::kRates:
      return "rates";
  }
  return "unknown";
}

std::optional<PluginKind> kindFromDescriptor(std::uint32_t value) {
  switch (value) {
    case SKINPULSE_KIND_SOURCE:
      return PluginKind::kSource;
    case SKINPULSE_KIND_IDENTITY:
      return PluginKind::kIdentity;
    case SKINPULSE_KIND_METRIC:
      return PluginKind::kMetric;
    case SKINPULSE_KIND_RATES:
      return PluginKind::kRates;
    default:
      return std::nullopt;
  }
}

std::optional<PluginKind> parseKind(std::string_view name) {
  for (PluginKind kind :
       {PluginKind::kSource, PluginKind::kIdentity, PluginKind::kMetric, PluginKind::kRates}) {
    if (kindName(kind) == name) return kind;
  }
  return std::nullopt;
}

}  // namespace skinpulse::plugin
