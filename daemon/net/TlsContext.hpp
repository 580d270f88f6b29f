#pragma once

// The TLS client context every https request shares: peers must present a certificate
// that chains to a trusted CA and names the host we asked for.

#include <Poco/Net/Context.h>

#include <string>

namespace skinpulse::net {

/// Trusts the CAs in `ca_location`, a directory of hashed certificates (/etc/ssl/certs)
/// or one PEM file. Refuses TLS below 1.2. Throws Poco::Exception when the location cannot
/// be loaded, so a misconfigured daemon fails at start rather than on its first poll.
Poco::Net::Context::Ptr makeClientTlsContext(const std::string& ca_location);

}  // namespace skinpulse::net
