#pragma once

// LooseIPv4: reads a host the way the C library's resolver does when it is an IPv4
// literal (inet_aton): one to four parts separated by dots, each decimal, octal (leading
// 0) or hexadecimal (0x), the last part filling the bytes that are left. "0",
// "2130706433", "0x7f.1" and "127.1" all name an address, and getaddrinfo connects to it;
// the create-time target check must judge them as what they are, not as names.

#include <cstdint>
#include <optional>
#include <string_view>

namespace skinpulse::alerts {

/// The address `text` names as an inet_aton-style IPv4 literal (host byte order), or
/// empty when it is not one (a name, an IPv6 literal, a part out of range).
std::optional<std::uint32_t> parseLooseIPv4(std::string_view text);

}  // namespace skinpulse::alerts
