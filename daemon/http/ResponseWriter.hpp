#pragma once

// Writes a Response to the client: status line, headers and body in one writev().
//
// Poco's sendBuffer() pushes a response through its 4 KiB session buffer, six send()
// calls for a 20 KB item page; writing it in one system call is what moved the items
// list from ~30 % towards nginx's rate (bench/README.md). Falls back to sendBuffer() when
// the request is not Poco's own server implementation (never the case in the daemon).

#include "http/Request.hpp"

#include <Poco/Net/HTTPServerRequest.h>
#include <Poco/Net/HTTPServerResponse.h>

namespace skinpulse::http {

/// Sends `response`; with `head_only` the headers (and Content-Length) but no body.
/// `in` may be null when no request could be parsed. Never throws: a client that went
/// away just loses its response.
void writeResponse(Poco::Net::HTTPServerRequest* in, Poco::Net::HTTPServerResponse& out,
                   const Response& response, bool head_only) noexcept;

}  // namespace skinpulse::http
