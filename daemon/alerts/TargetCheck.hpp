#pragma once

// TargetCheck: the SSRF rule of docs/api.md §13. A delivery target must resolve to public
// addresses only; the check runs when a rule is written (literal addresses) and again
// on every delivery, on the addresses the connection then uses (no DNS rebinding between
// check and connect). [alerts] allow_private_targets switches it off.

#include <Poco/Net/IPAddress.h>
#include <Poco/Net/SocketAddress.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace skinpulse::alerts {

/// Refused target: the delivery fails for good (never retried). what() names the host and
/// why, for the operator's log; never the address a name resolved to.
class TargetRefused : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Whether `address` is globally routable unicast: not private (RFC 1918), loopback,
/// link-local, unique-local, shared (CGNAT 100.64/10), multicast, documentation,
/// benchmarking, reserved or unspecified; IPv4-mapped, NAT64 and 6to4 IPv6 addresses
/// are judged by the IPv4 address inside.
bool isPublicAddress(const Poco::Net::IPAddress& address);

/// Whether `host` (a URL host, brackets removed) is "localhost" (or a name under it) or a
/// literal address that is not public — in any form the resolver reads as an address
/// ("0", "127.1", "0x7f.1", "2130706433", "::ffff:127.0.0.1"), with or without one
/// trailing dot: refused when a rule is written.
bool isPrivateHostLiteral(std::string_view host);

/// Resolves `host` and returns the addresses to connect to (port `port`). Throws
/// TargetRefused when it does not resolve or, unless `allow_private`, when any of its
/// addresses is not public (a name with one private address is refused as a whole).
std::vector<Poco::Net::SocketAddress> resolveTarget(const std::string& host, std::uint16_t port,
                                                    bool allow_private);

}  // namespace skinpulse::alerts
