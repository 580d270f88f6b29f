#pragma once

// Turns an sdk::HttpRequest's method and headers into a Poco request, with the client's
// defaults, refusing anything that could smuggle a second request onto the wire.

#include "skinpulse/sdk/host.hpp"

#include <Poco/Net/HTTPRequest.h>

#include <optional>
#include <string>

namespace skinpulse::net {

/// The Accept-Encoding sent unless the plugin chose its own: every coding we decode.
inline constexpr const char* kDefaultAcceptEncoding = "gzip, br";

/// Copies `request`'s headers onto `out` in order (repeated names stay repeated), then adds
/// Host (`authority`), User-Agent and Accept-Encoding unless the plugin set them. The
/// framing headers (Content-Length, Transfer-Encoding, Connection) belong to the client and
/// are not copied. Returns a description of the first invalid method or header (names must
/// be RFC 9110 tokens; values must not hold CR, LF or NUL), or nullopt when all is well.
std::optional<std::string> buildRequestHead(const sdk::HttpRequest& request,
                                            const std::string& authority,
                                            const std::string& user_agent,
                                            Poco::Net::HTTPRequest& out);

}  // namespace skinpulse::net
