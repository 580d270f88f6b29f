#pragma once

// The server side of the RFC 6455 opening handshake, on our http::Request. Refusals are
// HttpErrors, so they leave as problem+json with the security headers like every other
// refusal (docs/api.md §2).

#include "http/Request.hpp"

#include <string>

namespace skinpulse::ws {

/// Sec-WebSocket-Accept for a client's Sec-WebSocket-Key (RFC 6455 §4.2.2).
std::string acceptKey(const std::string& client_key);

/// Checks the upgrade request and fills `response` with the 101 answer. Throws
/// http::HttpError: 426 `upgrade_required` (not a WebSocket upgrade, or a version other
/// than 13, with `Sec-WebSocket-Version: 13`), 400 `invalid_request` (bad key).
void acceptHandshake(const http::Request& request, http::Response& response);

}  // namespace skinpulse::ws
