#include "http/ClientAddress.hpp"

#include <algorithm>
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

}  // namespace

Poco::Net::IPAddress unmapped(const Poco::Net::IPAddress& address) {
  if (address.family() != Poco::Net::AddressFamily::IPv6 || !address.isIPv4Mapped()) {
    return address;
  }
  const auto* bytes = static_cast<const unsigned char*>(address.addr());
  return Poco::Net::IPAddress(bytes + 12, 4);  // the last 32 bits are the IPv4 address
}

std::string rateLimitKey(const std::string& client_address) {
  Poco::Net::IPAddress address;
  if (!Poco::Net::IPAddress::tryParse(client_address, address)) return client_address;
  address = unmapped(address);
  if (address.family() == Poco::Net::AddressFamily::IPv4) return address.toString();
  const Poco::Net::IPAddress prefix = address & Poco::Net::IPAddress(64, address.family());
  return prefix.toString() + "/64";
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
