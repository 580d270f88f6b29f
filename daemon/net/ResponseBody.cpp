#include "net/ResponseBody.hpp"

#include "net/BodyReader.hpp"
#include "net/ConnectionReader.hpp"
#include "net/ContentDecoder.hpp"
#include "net/TransferDecoder.hpp"

#include <Poco/Buffer.h>
#include <Poco/Net/SSLException.h>
#include <Poco/String.h>

#include <algorithm>
#include <climits>

namespace skinpulse::net {

namespace {

using Error = sdk::HttpResponse::Error;

/// Reads from the socket directly: Poco's body streams would hide a truncated body.
ConnectionReader::Receive socketReceiver(Poco::Net::StreamSocket socket) {
  return [socket](char* buffer, std::size_t n) mutable -> std::size_t {
    try {
      const int count =
          socket.receiveBytes(buffer, static_cast<int>(std::min<std::size_t>(n, INT_MAX)));
      // A blocking TLS socket answers -1 (want read) when its receive timeout passes.
      if (count < 0) throw Poco::TimeoutException("receive");
      return static_cast<std::size_t>(count);
    } catch (const Poco::Net::SSLConnectionUnexpectedlyClosedException&) {
      // Many TLS servers close without close_notify; the framing decides if it was early.
      return 0;
    }
  };
}

std::optional<BodyFailure> tooLarge(const std::string& what, std::size_t cap, const char* outcome) {
  return BodyFailure{Error::kTooLarge,
                     what + " over the cap of " + std::to_string(cap) + " bytes; " + outcome};
}

}  // namespace

std::optional<BodyFailure> receiveBody(Poco::Net::HTTPClientSession& session,
                                       const Poco::Net::HTTPResponse& head,
                                       const sdk::HttpRequest& request,
                                       std::chrono::steady_clock::time_point deadline,
                                       std::string& body) {
  // A body of announced length arrives in one allocation rather than by doubling.
  if (head.hasContentLength() && !head.has("Transfer-Encoding") &&
      isIdentityEncoding(head.get("Content-Encoding", ""))) {
    const Poco::Int64 announced = head.getContentLength64();
    if (announced > 0 && static_cast<std::uint64_t>(announced) <= request.max_body_bytes) {
      body.reserve(static_cast<std::size_t>(announced));
    }
  }
  return receiveBody(session, head, request, deadline, [&body](std::string_view decoded) {
    body.append(decoded);
    return true;
  });
}

std::optional<BodyFailure> receiveBody(Poco::Net::HTTPClientSession& session,
                                       const Poco::Net::HTTPResponse& head,
                                       const sdk::HttpRequest& request,
                                       std::chrono::steady_clock::time_point deadline,
                                       const TakeDecoded& take) {
  const std::string encoding = head.get("Content-Encoding", "");
  const auto decoder = makeContentDecoder(encoding);
  if (!decoder) return BodyFailure{Error::kProtocol, "unsupported Content-Encoding " + encoding};
  const bool identity = isIdentityEncoding(encoding);
  const BodyLimits limits{encodedLimitFor(request.max_body_bytes, identity), request.max_body_bytes,
                          deadline};

  // RFC 9112 §6.3: Transfer-Encoding wins over Content-Length; without either the body
  // runs until the server closes.
  TransferDecoder::Framing framing = TransferDecoder::Framing::kUntilClose;
  std::uint64_t length = 0;
  if (head.has("Transfer-Encoding")) {
    if (Poco::icompare(Poco::trim(head.get("Transfer-Encoding")), "chunked") != 0) {
      return BodyFailure{Error::kProtocol, "unsupported Transfer-Encoding"};
    }
    framing = TransferDecoder::Framing::kChunked;
  } else if (head.hasContentLength()) {
    const Poco::Int64 announced = head.getContentLength64();
    if (announced < 0) return BodyFailure{Error::kProtocol, "negative Content-Length"};
    length = static_cast<std::uint64_t>(announced);
    if (length > limits.max_encoded) {
      return tooLarge("Content-Length " + std::to_string(length), request.max_body_bytes,
                      "not read");
    }
    framing = TransferDecoder::Framing::kLength;
  }

  Poco::Buffer<char> pending(0);
  session.drainBuffer(pending);
  ConnectionReader connection(socketReceiver(session.socket()),
                              std::string(pending.begin(), pending.size()));
  TransferDecoder transfer(connection, framing, length);
  const auto next = [&transfer](char* buffer, std::size_t n) { return transfer.read(buffer, n); };
  switch (streamBody(next, *decoder, limits, take)) {
    case BodyStatus::kOk:
      return std::nullopt;
    case BodyStatus::kTimeout:
      return BodyFailure{Error::kTimeout, "deadline passed while reading the body"};
    case BodyStatus::kTooLarge:
      return tooLarge("body", request.max_body_bytes, "stopped reading");
    case BodyStatus::kCorrupt:
      return BodyFailure{Error::kProtocol, "body does not decode as " + encoding};
    case BodyStatus::kStopped:
      return BodyFailure{Error::kProtocol, "stopped by the reader"};
  }
  return std::nullopt;
}

}  // namespace skinpulse::net
