#pragma once

// Maps the exceptions Poco throws during an exchange onto the SDK's error kinds.

#include "skinpulse/sdk/host.hpp"

#include <Poco/Exception.h>

namespace skinpulse::net {

/// kTimeout for socket timeouts; kProtocol for malformed HTTP (bad status line, header or
/// chunk framing); kConnect for everything about reaching or keeping the peer (DNS,
/// refused, reset, TLS handshake and certificate failures).
sdk::HttpResponse::Error errorKindOf(const Poco::Exception& failure);

}  // namespace skinpulse::net
