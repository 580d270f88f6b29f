#pragma once

// The answer to check_authentication (OpenID 2.0 §4.1.1 Key-Value form, §11.4.2.2):
// `key:value\n` per line, each split on its first colon.

#include <string_view>

namespace skinpulse::plugins::openid2 {

inline constexpr std::string_view kOpenIdNamespace = "http://specs.openid.net/auth/2.0";

/// True only when the body is well-formed Key-Value form whose `ns` is exactly the 2.0
/// namespace and whose `is_valid` is exactly `true`. A line without a colon, a key given
/// twice, or a value such as `true:...` or `TRUE` makes it false.
bool assertsValid(std::string_view body);

}  // namespace skinpulse::plugins::openid2
