#pragma once

// Strict UTF-8 validation (RFC 3629: no overlong forms, no surrogates, nothing above
// U+10FFFF), as RFC 6455 §8.1 demands of text messages and close reasons.

#include <string_view>

namespace skinpulse::ws {

bool isValidUtf8(std::string_view text);

}  // namespace skinpulse::ws
