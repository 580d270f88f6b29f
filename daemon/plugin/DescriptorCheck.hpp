#pragma once

// The checks a plugin descriptor must pass before the daemon calls anything in it besides
// the entry point. Pure functions: the loader calls them on a live descriptor, tests on
// hand-made ones.

#include "skinpulse/sdk/plugin.hpp"

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace skinpulse::plugin {

/// The smallest descriptor this daemon can read: every field up to and including
/// `destroy` (SDK ABI 1.0). Later minors may append fields, which the daemon ignores.
inline constexpr std::size_t kMinDescriptorSize =
    offsetof(skinpulse_plugin_descriptor, destroy) + sizeof(skinpulse_destroy_fn);

/// A descriptor of ABI 1.2 or later that is large enough to hold `fetch_quotes`.
inline constexpr std::size_t kQuoteDescriptorSize =
    offsetof(skinpulse_plugin_descriptor, fetch_quotes) + sizeof(skinpulse_fetch_quotes_fn);

/// The descriptor's ABI 1.2 fetch entry when it has one: a source plugin, abi_minor >= 2,
/// struct_size covering the field, the field set. nullptr for every older plugin, whose
/// descriptor ends before the field (docs/adr/0011-sdk-abi-1-2.md).
skinpulse_fetch_quotes_fn quoteEntry(const skinpulse_plugin_descriptor& descriptor);

/// A descriptor of ABI 1.3 or later that is large enough to hold `poll`.
inline constexpr std::size_t kPollDescriptorSize =
    offsetof(skinpulse_plugin_descriptor, poll) + sizeof(skinpulse_poll_fn);

/// The descriptor's ABI 1.3 poll entry when it has one: a source plugin, abi_minor >= 3,
/// struct_size covering the field, the field set. nullptr for every older plugin, whose
/// descriptor ends before the field (docs/adr/0022-sdk-abi-1-3.md).
skinpulse_poll_fn pollEntry(const skinpulse_plugin_descriptor& descriptor);

/// Checks, in this order, and answers the reason for the first failure (nullopt when all
/// pass): descriptor present; struct_size >= kMinDescriptorSize; abi_major equal and
/// abi_minor <= the daemon's; build_signature equal to the daemon's; kind known and
/// `fileName` equal to "<kind>_<name>.so"; name matches [a-z0-9_]+; create and destroy
/// present; config key table well formed (names present, unique, not reserved).
/// Each reason names both values, e.g. "SDK ABI 2.0, daemon supports 1.0 (...)".
std::optional<std::string> checkDescriptor(const skinpulse_plugin_descriptor* descriptor,
                                           std::string_view fileName);

/// True for a non-empty string of [a-z0-9_].
bool isValidPluginName(std::string_view name);

/// "<kind>_<name>.so" split at the first underscore when <kind> is a known kind; both
/// empty otherwise. Used to label rows of files refused before their descriptor was read.
struct PluginFileName {
  std::string kind;
  std::string name;
};
PluginFileName splitPluginFileName(std::string_view fileName);

}  // namespace skinpulse::plugin
