#pragma once

// ABI versioning of the skinpulse plugin SDK.
//
// abi_major changes whenever any interface's virtual functions, any value type's layout
// or the descriptor's meaning changes: the daemon refuses plugins of another major.
// abi_minor grows when something is added in a compatible way (a new interface, a new
// plugin kind); the daemon accepts plugins whose minor is <= its own.

#include <cstdint>

#define SKINPULSE_SDK_ABI_MAJOR 1
#define SKINPULSE_SDK_ABI_MINOR 2

#define SKINPULSE_SDK_STRINGIFY2(x) #x
#define SKINPULSE_SDK_STRINGIFY(x) SKINPULSE_SDK_STRINGIFY2(x)

#if defined(__clang__)
#define SKINPULSE_SDK_COMPILER "clang"
#elif defined(__GNUC__)
#define SKINPULSE_SDK_COMPILER "gcc"
#else
#define SKINPULSE_SDK_COMPILER "other"
#endif

#if defined(_GLIBCXX_USE_CXX11_ABI)
#define SKINPULSE_SDK_CXXABI "cxx11abi=" SKINPULSE_SDK_STRINGIFY(_GLIBCXX_USE_CXX11_ABI)
#else
#define SKINPULSE_SDK_CXXABI "cxx11abi=na"
#endif

/// The build signature: the facts besides the ABI version that must agree between the
/// daemon and a plugin because std::string and std::vector cross the boundary. The
/// compiler family is part of it (libstdc++ layouts are shared by gcc and clang, but we
/// do not promise more than we test), the major version is not.
// clang-format off
#define SKINPULSE_SDK_BUILD_SIGNATURE                                       \
  "skinpulse-sdk/" SKINPULSE_SDK_STRINGIFY(SKINPULSE_SDK_ABI_MAJOR) " "    \
  SKINPULSE_SDK_COMPILER " " SKINPULSE_SDK_CXXABI                          \
  " ptr=" SKINPULSE_SDK_STRINGIFY(__SIZEOF_POINTER__)
// clang-format on

namespace skinpulse::sdk {

inline constexpr std::uint32_t kAbiMajor = SKINPULSE_SDK_ABI_MAJOR;
inline constexpr std::uint32_t kAbiMinor = SKINPULSE_SDK_ABI_MINOR;

}  // namespace skinpulse::sdk
