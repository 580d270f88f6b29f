#include "alerts/TargetCheck.hpp"

#include "alerts/LooseIPv4.hpp"

#include <Poco/Net/DNS.h>
#include <Poco/Net/NetException.h>

#include <array>
#include <cstring>
#include <memory>
#include <netdb.h>
#include <netinet/in.h>
#include <sys/socket.h>

namespace skinpulse::alerts {
namespace {

bool inV4(std::uint32_t a, std::uint32_t net, int bits) {
  const std::uint32_t mask = bits == 0 ? 0 : ~std::uint32_t{0} << (32 - bits);
  return (a & mask) == (net & mask);
}

constexpr std::uint32_t v4(unsigned a, unsigned b, unsigned c, unsigned d) {
  return (a << 24) | (b << 16) | (c << 8) | d;
}

bool isPublicV4(std::uint32_t a) {
  struct Range {
    std::uint32_t net;
    int bits;
  };
  static constexpr std::array<Range, 16> kRefused = {{
      {v4(0, 0, 0, 0), 8},        // "this network", unspecified
      {v4(10, 0, 0, 0), 8},       // private
      {v4(100, 64, 0, 0), 10},    // shared address space (CGNAT)
      {v4(127, 0, 0, 0), 8},      // loopback
      {v4(169, 254, 0, 0), 16},   // link-local (cloud metadata lives here)
      {v4(172, 16, 0, 0), 12},    // private
      {v4(192, 0, 0, 0), 24},     // IETF protocol assignments
      {v4(192, 0, 2, 0), 24},     // TEST-NET-1
      {v4(192, 88, 99, 0), 24},   // 6to4 relay anycast
      {v4(192, 168, 0, 0), 16},   // private
      {v4(198, 18, 0, 0), 15},    // benchmarking
      {v4(198, 51, 100, 0), 24},  // TEST-NET-2
      {v4(203, 0, 113, 0), 24},   // TEST-NET-3
      {v4(224, 0, 0, 0), 4},      // multicast
      {v4(240, 0, 0, 0), 4},      // reserved, broadcast
      {v4(255, 255, 255, 255), 32},
  }};
  for (const auto& r : kRefused) {
    if (inV4(a, r.net, r.bits)) return false;
  }
  return true;
}

std::uint32_t v4At(const unsigned char* b) {
  return (std::uint32_t{b[0]} << 24) | (std::uint32_t{b[1]} << 16) | (std::uint32_t{b[2]} << 8) |
         std::uint32_t{b[3]};
}

bool isPublicV6(const unsigned char* b) {
  static constexpr unsigned char kMapped[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};
  static constexpr unsigned char kNat64[12] = {0, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0};
  if (std::memcmp(b, kMapped, 12) == 0 || std::memcmp(b, kNat64, 12) == 0) {
    return isPublicV4(v4At(b + 12));
  }
  if (b[0] == 0x20 && b[1] == 0x02) return isPublicV4(v4At(b + 2));  // 6to4
  // Only global unicast (2000::/3) is public; inside it, the IETF assignments (2001::/23:
  // Teredo, benchmarking, ORCHID) and documentation (2001:db8::/32) are not.
  if ((b[0] & 0xe0) != 0x20) return false;
  if (b[0] == 0x20 && b[1] == 0x01 && b[2] < 0x02) return false;
  if (b[0] == 0x20 && b[1] == 0x01 && b[2] == 0x0d && b[3] == 0xb8) return false;
  if (b[0] == 0x3f && b[1] == 0xff && (b[2] & 0xf0) == 0) return false;  // 3fff::/20 docs
  return true;
}

}  // namespace

bool isPublicAddress(const Poco::Net::IPAddress& address) {
  const auto* bytes = static_cast<const unsigned char*>(address.addr());
  if (address.family() == Poco::Net::IPAddress::IPv4) return isPublicV4(v4At(bytes));
  return isPublicV6(bytes);
}

bool isPrivateHostLiteral(std::string_view host) {
  std::string lower(host);
  for (auto& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  // "localhost." is the same name as "localhost" (an absolute name), and the resolver
  // takes "127.0.0.1." as it takes "127.0.0.1": one trailing dot never changes a verdict.
  if (lower.ends_with('.')) lower.pop_back();
  if (lower.empty()) return true;  // "." names the root, never a webhook
  if (lower == "localhost" || (lower.size() > 10 && lower.ends_with(".localhost"))) return true;
  // The resolver reads "0", "2130706433", "0x7f.1" and "127.1" as addresses: so must we.
  if (const auto v4 = parseLooseIPv4(lower)) return !isPublicV4(*v4);
  Poco::Net::IPAddress address;
  if (!Poco::Net::IPAddress::tryParse(lower, address)) {
    // A colon is never in a name: an IPv6 form Poco does not read is refused, not let by.
    return lower.find(':') != std::string::npos;
  }
  return !isPublicAddress(address);
}

std::vector<Poco::Net::SocketAddress> resolveTarget(const std::string& host, std::uint16_t port,
                                                    bool allow_private) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* found = nullptr;
  const int rc = ::getaddrinfo(host.c_str(), nullptr, &hints, &found);
  if (rc != 0 || found == nullptr) {
    throw TargetRefused("target host " + host +
                        " does not resolve: " + std::string(::gai_strerror(rc)));
  }
  std::unique_ptr<addrinfo, decltype(&::freeaddrinfo)> guard(found, &::freeaddrinfo);
  std::vector<Poco::Net::SocketAddress> out;
  for (const addrinfo* ai = found; ai != nullptr; ai = ai->ai_next) {
    if (ai->ai_family != AF_INET && ai->ai_family != AF_INET6) continue;
    const Poco::Net::IPAddress address =
        Poco::Net::SocketAddress(ai->ai_addr, static_cast<poco_socklen_t>(ai->ai_addrlen)).host();
    if (!allow_private && !isPublicAddress(address)) {
      // The address itself stays out of every message: the log is read by more people
      // than the network's plan should be.
      throw TargetRefused("target host " + host +
                          " resolves to a non-public address; [alerts] allow_private_targets "
                          "= true allows it");
    }
    Poco::Net::SocketAddress socket_address(address, port);
    bool seen = false;
    for (const auto& s : out) seen = seen || s == socket_address;
    if (!seen) out.push_back(socket_address);
  }
  if (out.empty()) throw TargetRefused("target host has no IPv4 or IPv6 address");
  return out;
}

}  // namespace skinpulse::alerts
