#pragma once

// Takes a response's body off the connection once Poco has parsed the head: picks the
// framing, refuses an announced length over the cap before reading a byte, and reads
// through the content decoder under the caps and the deadline.

#include "skinpulse/sdk/host.hpp"

#include "net/BodyReader.hpp"

#include <Poco/Net/HTTPClientSession.h>
#include <Poco/Net/HTTPResponse.h>

#include <chrono>
#include <optional>
#include <string>

namespace skinpulse::net {

struct BodyFailure {
  sdk::HttpResponse::Error error;
  std::string reason;
};

/// Reads the body announced by `head` from `session` into `body`. Returns the failure
/// (kTooLarge, kTimeout, kProtocol) or nullopt; on kTooLarge the caller must close the
/// connection without reading on. Throws Poco::Exception for network failures and broken
/// framing.
std::optional<BodyFailure> receiveBody(Poco::Net::HTTPClientSession& session,
                                       const Poco::Net::HTTPResponse& head,
                                       const sdk::HttpRequest& request,
                                       std::chrono::steady_clock::time_point deadline,
                                       std::string& body);

/// receiveBody() handing each decoded piece to `take` (BodyReader.hpp streamBody) instead
/// of collecting it; `take` answering false fails as kProtocol "stopped by the reader".
std::optional<BodyFailure> receiveBody(Poco::Net::HTTPClientSession& session,
                                       const Poco::Net::HTTPResponse& head,
                                       const sdk::HttpRequest& request,
                                       std::chrono::steady_clock::time_point deadline,
                                       const TakeDecoded& take);

}  // namespace skinpulse::net
