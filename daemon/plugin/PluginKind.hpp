#pragma once

// The plugin kinds, as the daemon names them ("source", "identity", "metric", "rates") and
// as the SDK numbers them in the descriptor.

#include "skinpulse/sdk/plugin.hpp"

#include <cstdint>
#include <optional>
#include <string_view>

namespace skinpulse::plugin {

enum class PluginKind : std::uint32_t {
  kSource = SKINPULSE_KIND_SOURCE,
  kIdentity = SKINPULSE_KIND_IDENTITY,
  kMetric = SKINPULSE_KIND_METRIC,
  kRates = SKINPULSE_KIND_RATES,  ///< since SDK ABI 1.2
};

/// "source", "identity", "metric" or "rates": the prefix of the plugin's file name and of its INI
/// section.
std::string_view kindName(PluginKind kind);

/// The kind for a descriptor's `kind` value; empty for a value the daemon does not know.
std::optional<PluginKind> kindFromDescriptor(std::uint32_t value);

/// The kind for "source", "identity", "metric" or "rates"; empty otherwise.
std::optional<PluginKind> parseKind(std::string_view name);

/// The kind whose create() returns `Interface` (sdk::MarketSource, sdk::IdentityProvider,
/// sdk::Metric, sdk::RateSource).
template <typename Interface>
inline constexpr PluginKind kKindOf =
    static_cast<PluginKind>(sdk::detail::KindOf<Interface>::value);

}  // namespace skinpulse::plugin
