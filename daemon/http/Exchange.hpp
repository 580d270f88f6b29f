#pragma once

// One HTTP request/response exchange on a connection: parse Poco's request into our
// Request (refusing oversized bodies and malformed targets before routing), dispatch,
// write the answer, and log one access line (method, path without query, status,
// duration, client; never cookies or tokens).

#include "http/Dispatcher.hpp"

#include <Poco/Net/HTTPServerRequest.h>
#include <Poco/Net/HTTPServerResponse.h>

#include <functional>
#include <string>

namespace skinpulse::http {

struct ServerOptions;

/// Returns the handler's Response::take_over after a written 101 to a GET, else empty.
std::function<void(int, std::string)> serveExchange(const Dispatcher& dispatcher,
                                                    const ServerOptions& options,
                                                    Poco::Net::HTTPServerRequest& in,
                                                    Poco::Net::HTTPServerResponse& out);

}  // namespace skinpulse::http
