#include "http/ClientAddress.hpp"

#include <algorithm>
#include <arpa/inet.h>
#include <stdexcept>

namespace skinpulse::http {
namespace {

std::string trim(std::string_view text) {
  const auto begin = text.find_first_not_of(" \t");
  if (begin == std::string_view::npos) return {};
  const auto end = text.find_last_not_of(" \t");
  return std::string(text.substr(begin, end - begin + 1));
}

bool iequals(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) ==
                  std::tolower(static_cast<unsigned char>(y));
         });
}

// Every X-Forwarded-For entry, in order, over all such header lines.
std::vector<std::string> forwardedFor(const Request& request) {
  std::vector<std::string> entries;
  for (const auto& [name, value] : request.headers) {
    if (!iequals(name, "X-Forwarded-For")) continue;
    std::string_view rest = value;
    while (true) {
      const auto comma = rest.find(',');
      entries.push_back(trim(rest.substr(0, comma)));
      if (comma == std::string_view::npos) break;
      rest = rest.substr(comma + 1);
    }
  }
  return entries;
}

// The key of an address's bytes (4: IPv4, 16: IPv6): an IPv4 address (mapped ones too)
// itself, an IPv6 address its /64.
std::string keyOf(const unsigned char* bytes, std::size_t length) {
  static constexpr unsigned char kMappedPrefix[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};
  char text[INET6_ADDRSTRLEN];
  if (length == 16 && std::equal(bytes, bytes + 12, kMappedPrefix)) {
    bytes += 12;
    length = 4;
  }
  if (length == 4) return ::inet_ntop(AF_INET, bytes, text, sizeof text);
  unsigned char prefix[16] = {};
  std::copy(bytes, bytes + 8, prefix);
  return std::string(::inet_ntop(AF_INET6, prefix, text, sizeof text)) + "/64";
}

}  // namespace

Poco::Net::IPAddress unmapped(const Poco::Net::IPAddress& address) {
  if (address.family() != Poco::Net::AddressFamily::IPv6 || !address.isIPv4Mapped()) {
    return address;
  }
  const auto* bytes = static_cast<const unsigned char*>(address.addr());
  return Poco::Net::IPAddress(bytes + 12, 4);  // the last 32 bits are the IPv4 address
}

std::string rateLimitKey(const std::string& client_address) {
  // Every connection and every budgeted read asks for this, so the spellings a socket
  // reports are read with inet_pton on the stack (Poco's parse cost ~0.6 µs for IPv4 and
  // ~1.2 µs for IPv6, most of a read budget's check); other text Poco accepts (a scope
  // id, "127.1") takes its parse, and both end in keyOf: one spelling of a key per address.
  unsigned char bytes[16];
  // inet_pton takes only the four-part dotted decimal without leading zeros: the text is
  // already the key.
  if (::inet_pton(AF_INET, client_address.c_str(), bytes) == 1) return client_address;
  if (::inet_pton(AF_INET6, client_address.c_str(), bytes) == 1) return keyOf(bytes, 16);
  Poco::Net::IPAddress address;
  if (!Poco::Net::IPAddress::tryParse(client_address, address)) return client_address;
  return keyOf(static_cast<const unsigned char*>(address.addr()), address.length());
}

TrustedProxies::TrustedProxies(const std::vector<std::string>& cidrs) {
  for (const auto& cidr : cidrs) {
    const auto slash = cidr.find('/');
    Poco::Net::IPAddress address;
    if (!Poco::Net::IPAddress::tryParse(cidr.substr(0, slash), address)) {
      throw std::invalid_argument("'" + cidr + "' is not a CIDR");
    }
    const unsigned bits = address.family() == Poco::Net::AddressFamily::IPv4 ? 32 : 128;
    unsigned prefix = bits;
    if (slash != std::string::npos) {
      try {
        std::size_t used = 0;
        prefix = static_cast<unsigned>(std::stoul(cidr.substr(slash + 1), &used));
        if (used != cidr.size() - slash - 1) prefix = bits + 1;
      } catch (const std::exception&) {
        prefix = bits + 1;
      }
      if (prefix > bits) throw std::invalid_argument("'" + cidr + "' is not a CIDR");
    }
    address = unmapped(address);  // "::ffff:10.0.0.0/104" is 10.0.0.0/8
    if (bits == 128 && address.family() == Poco::Net::AddressFamily::IPv4) {
      if (prefix < 96) throw std::invalid_argument("'" + cidr + "' is not a CIDR");
      prefix -= 96;
    }
    const Poco::Net::IPAddress mask(prefix, address.family());
    networks_.push_back(Network{address & mask, mask});
  }
}

bool TrustedProxies::contains(const Poco::Net::IPAddress& given) const {
  const Poco::Net::IPAddress address = unmapped(given);
  return std::any_of(networks_.begin(), networks_.end(), [&](const Network& network) {
    return network.address.family() == address.family() &&
           (address & network.mask) == network.address;
  });
}

std::string TrustedProxies::clientAddress(const Request& request) const {
  Poco::Net::IPAddress peer;
  if (!Poco::Net::IPAddress::tryParse(request.client_address, peer)) {
    return request.client_address;
  }
  peer = unmapped(peer);
  std::string client = peer.toString();
  if (networks_.empty() || !contains(peer)) return client;
  // From the nearest hop outwards: each trusted proxy vouches for the address left of it.
  const auto entries = forwardedFor(request);
  for (auto it = entries.rbegin(); it != entries.rend(); ++it) {
    Poco::Net::IPAddress hop;
    if (!Poco::Net::IPAddress::tryParse(*it, hop)) break;
    hop = unmapped(hop);
    client = hop.toString();
    if (!contains(hop)) break;
  }
  return client;
}

}  // namespace skinpulse::http
