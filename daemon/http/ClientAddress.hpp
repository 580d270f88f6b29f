#pragma once

// The client IP of a request (docs/api.md §1.2 TRUSTED_PROXIES): the peer address,
// unless the peer is a trusted proxy; then X-Forwarded-For is read from the right,
// skipping further trusted proxies, and the first address that is not one is the
// client. A forged left part of the header is thereby ignored. A malformed entry stops
// the walk at the last good address. An IPv4-mapped IPv6 address (::ffff:a.b.c.d, what
// a dual-stack socket reports for an IPv4 peer) is that IPv4 address, for the proxy
// check and for the answer.

#include "http/Request.hpp"

#include <Poco/Net/IPAddress.h>

#include <string>
#include <vector>

namespace skinpulse::http {

/// `address` with an IPv4-mapped IPv6 address turned into its IPv4 address; any other
/// address unchanged.
Poco::Net::IPAddress unmapped(const Poco::Net::IPAddress& address);

/// The key a client is rate-limited under: an IPv4 address itself; an IPv6 address by
/// its /64 ("2001:db8:1:2::/64"), since one subscriber usually holds a whole /64 and
/// could otherwise rotate through 2^64 keys. Text that is no address is its own key.
std::string rateLimitKey(const std::string& client_address);

class TrustedProxies {
 public:
  /// CIDRs as validated by Settings ("10.0.0.0/8", "::1/128", a bare address = /32 or
  /// /128). Throws std::invalid_argument for a malformed one.
  explicit TrustedProxies(const std::vector<std::string>& cidrs);

  bool contains(const Poco::Net::IPAddress& address) const;
  bool empty() const { return networks_.empty(); }

  /// The client IP of `request`, as text.
  std::string clientAddress(const Request& request) const;

 private:
  struct Network {
    Poco::Net::IPAddress address;
    Poco::Net::IPAddress mask;
  };
  std::vector<Network> networks_;
};

}  // namespace skinpulse::http
