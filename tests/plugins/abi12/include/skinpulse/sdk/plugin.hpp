#pragma once

// The one symbol every plugin exports.
//
// A plugin shared object defines `skinpulse_plugin_entry()`, returning a pointer to a
// static descriptor. The daemon's loader calls it first and checks, in this order:
// struct_size, abi_major (equal), abi_minor (<= the host's), build_signature, kind and
// name (they must agree with the file name `<kind>_<name>.so`). Only then does it call
// create(). Use SKINPULSE_DECLARE_PLUGIN rather than writing a descriptor by hand: it
// fills the versions in from the headers the plugin was compiled against and keeps
// exceptions from crossing the boundary.
//
// Ownership: the object create() returns belongs to the host until it passes it back
// to destroy(), which the host calls before it unloads the library.

#include "skinpulse/sdk/host.hpp"
#include "skinpulse/sdk/identity.hpp"
#include "skinpulse/sdk/metric.hpp"
#include "skinpulse/sdk/rates.hpp"
#include "skinpulse/sdk/source.hpp"
#include "skinpulse/sdk/version.hpp"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <type_traits>

extern "C" {

/// Plugin kinds; the value tells the host which interface create() returns.
enum skinpulse_plugin_kind : std::uint32_t {
  SKINPULSE_KIND_SOURCE = 1,    ///< skinpulse::sdk::MarketSource
  SKINPULSE_KIND_IDENTITY = 2,  ///< skinpulse::sdk::IdentityProvider
  SKINPULSE_KIND_METRIC = 3,    ///< skinpulse::sdk::Metric
  /// Since ABI 1.2 (a new kind, not a new layout: older plugins keep loading, and the host
  /// refuses this kind from a descriptor that declares an older minor).
  SKINPULSE_KIND_RATES = 4,  ///< skinpulse::sdk::RateSource
};

/// One configuration key the plugin accepts. The host rejects keys not listed (a typo in
/// /etc is an error at start, not a silently ignored line) and enforces `required`.
struct skinpulse_config_key {
  const char* name;
  const char* description;
  int required;  ///< non-zero: the instance cannot start without it
};

/// create() either returns the new instance or nullptr and a message in `error`
/// (NUL-terminated, truncated to error_size).
typedef void* (*skinpulse_create_fn)(skinpulse::sdk::Host* host, char* error,
                                     std::size_t error_size);
typedef void (*skinpulse_destroy_fn)(void* instance);
/// Since ABI 1.2: runs one QuoteSource::fetchQuotes() of `instance` (an object create()
/// returned) and moves the result into `*out`, which the host owns. Never throws.
typedef void (*skinpulse_fetch_quotes_fn)(void* instance, skinpulse::sdk::QuoteBatch* out);

struct skinpulse_plugin_descriptor {
  std::uint32_t struct_size;  ///< sizeof(skinpulse_plugin_descriptor) at build time
  std::uint32_t abi_major;
  std::uint32_t abi_minor;
  const char* build_signature;
  std::uint32_t kind;  ///< a skinpulse_plugin_kind
  const char* name;    ///< [a-z0-9_]+, unique among plugins of its kind
  const char* version;
  const char* description;
  const skinpulse_config_key* config_keys;
  std::size_t config_key_count;
  skinpulse_create_fn create;
  skinpulse_destroy_fn destroy;
  // ---- appended in ABI 1.2; the host reads a field only when struct_size covers it and
  // ---- abi_minor >= 2 (a 1.0/1.1 descriptor ends above).
  /// Sources only: set when the class is a QuoteSource, nullptr otherwise (the host then
  /// calls MarketSource::fetch()).
  skinpulse_fetch_quotes_fn fetch_quotes;
};

#define SKINPULSE_PLUGIN_ENTRY_SYMBOL "skinpulse_plugin_entry"
typedef const skinpulse_plugin_descriptor* (*skinpulse_entry_fn)();

}  // extern "C"

namespace skinpulse::sdk::detail {

template <typename Interface>
struct KindOf;
template <>
struct KindOf<MarketSource> {
  static constexpr std::uint32_t value = SKINPULSE_KIND_SOURCE;
};
template <>
struct KindOf<IdentityProvider> {
  static constexpr std::uint32_t value = SKINPULSE_KIND_IDENTITY;
};
template <>
struct KindOf<Metric> {
  static constexpr std::uint32_t value = SKINPULSE_KIND_METRIC;
};

template <>
struct KindOf<RateSource> {
  static constexpr std::uint32_t value = SKINPULSE_KIND_RATES;
};

template <std::size_t N>
constexpr const skinpulse_config_key* keyArray(const skinpulse_config_key (&keys)[N]) {
  return keys;
}
constexpr const skinpulse_config_key* keyArray(std::nullptr_t) { return nullptr; }
template <std::size_t N>
constexpr std::size_t keyCount(const skinpulse_config_key (&)[N]) {
  return N;
}
constexpr std::size_t keyCount(std::nullptr_t) { return 0; }

inline void copyError(char* error, std::size_t size, const char* message) {
  if (error != nullptr && size > 0) std::snprintf(error, size, "%s", message);
}

// The factory boundary: no exception escapes into the host.
template <typename Interface, typename Class>
void* create(Host* host, char* error, std::size_t error_size) noexcept {
  try {
    Interface* instance = new Class(*host);
    return static_cast<void*>(instance);
  } catch (const std::exception& e) {
    copyError(error, error_size, e.what());
  } catch (...) {
    copyError(error, error_size, "unknown exception in plugin constructor");
  }
  return nullptr;
}

template <typename Interface, typename Class>
void destroy(void* instance) noexcept {
  delete static_cast<Class*>(static_cast<Interface*>(instance));
}

// The ABI 1.2 fetch boundary: no exception escapes into the host.
template <typename Interface, typename Class>
void fetchQuotes(void* instance, QuoteBatch* out) noexcept {
  try {
    *out = static_cast<Class*>(static_cast<Interface*>(instance))->fetchQuotes();
  } catch (const std::exception& e) {
    out->quotes.clear();
    out->status = Status(Status::Code::kInternal, e.what());
  } catch (...) {
    out->quotes.clear();
    out->status = Status(Status::Code::kInternal, "unknown exception in fetchQuotes()");
  }
}

template <typename Interface, typename Class>
constexpr skinpulse_fetch_quotes_fn fetchQuotesEntry() {
  if constexpr (std::is_base_of_v<QuoteSource, Class>) {
    return &fetchQuotes<Interface, Class>;
  } else {
    return nullptr;
  }
}

}  // namespace skinpulse::sdk::detail

/// Declares the plugin entry point. `Interface` is MarketSource, IdentityProvider, Metric
/// or (ABI 1.2) RateSource; `Class` derives from it and has a constructor
/// `Class(skinpulse::sdk::Host&)` that may throw to refuse its configuration; `KEYS` is a static
/// array of skinpulse_config_key, or nullptr for a plugin that takes no keys. A source class that
/// derives from QuoteSource (ABI 1.2) is still declared with `MarketSource`.
#define SKINPULSE_DECLARE_PLUGIN(Interface, Class, NAME, VERSION, DESCRIPTION, KEYS)       \
  extern "C" __attribute__((visibility("default"))) const skinpulse_plugin_descriptor*     \
  skinpulse_plugin_entry() {                                                               \
    static const skinpulse_plugin_descriptor descriptor = {                                \
        sizeof(skinpulse_plugin_descriptor),                                               \
        SKINPULSE_SDK_ABI_MAJOR,                                                           \
        SKINPULSE_SDK_ABI_MINOR,                                                           \
        SKINPULSE_SDK_BUILD_SIGNATURE,                                                     \
        ::skinpulse::sdk::detail::KindOf<::skinpulse::sdk::Interface>::value,              \
        NAME,                                                                              \
        VERSION,                                                                           \
        DESCRIPTION,                                                                       \
        ::skinpulse::sdk::detail::keyArray(KEYS),                                          \
        ::skinpulse::sdk::detail::keyCount(KEYS),                                          \
        &::skinpulse::sdk::detail::create<::skinpulse::sdk::Interface, Class>,             \
        &::skinpulse::sdk::detail::destroy<::skinpulse::sdk::Interface, Class>,            \
        ::skinpulse::sdk::detail::fetchQuotesEntry<::skinpulse::sdk::Interface, Class>()}; \
    return &descriptor;                                                                    \
  }
