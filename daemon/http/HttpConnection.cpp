#include "http/HttpConnection.hpp"

#include "common/Log.hpp"
#include "http/Exchange.hpp"
#include "http/HttpError.hpp"
#include "http/HttpServer.hpp"
#include "http/Problem.hpp"
#include "http/ResponseWriter.hpp"

#include <Poco/Net/HTTPServerRequestImpl.h>
#include <Poco/Net/HTTPServerResponseImpl.h>
#include <Poco/Net/HTTPServerSession.h>
#include <Poco/Net/NetException.h>
#include <Poco/Timestamp.h>

#include <algorithm>
#include <sys/socket.h>
#include <unistd.h>

namespace skinpulse::http {

bool ConnectionRegistry::add(const Poco::Net::StreamSocket& socket) {
  std::lock_guard lock(mutex_);
  if (stopping_) return false;
  sockets_.insert(socket.impl()->sockfd());
  return true;
}

void ConnectionRegistry::remove(const Poco::Net::StreamSocket& socket) {
  std::lock_guard lock(mutex_);
  sockets_.erase(socket.impl()->sockfd());
}

void ConnectionRegistry::shutdownAll() {
  std::lock_guard lock(mutex_);
  stopping_ = true;
  // shutdown(), not close(): the owning thread still holds the descriptor and closes it.
  for (const auto fd : sockets_) ::shutdown(fd, SHUT_RDWR);
}

namespace {

// Exposes the bytes Poco's session buffered beyond the request head, so a protocol
// switch hands them on instead of losing them.
class Session final : public Poco::Net::HTTPServerSession {
 public:
  using HTTPServerSession::HTTPServerSession;
  std::string takeBuffered() {
    std::string bytes(static_cast<std::size_t>(std::max(0, buffered())), '\0');
    if (!bytes.empty()) read(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    return bytes;
  }
};

void refuseMalformed(Poco::Net::HTTPServerResponseImpl& response) {
  Response problem;
  renderProblem(HttpError(400, "invalid_request", "malformed HTTP request"), problem);
  applySecurityHeaders("", problem);
  response.setVersion(Poco::Net::HTTPMessage::HTTP_1_1);
  response.setKeepAlive(false);
  writeResponse(nullptr, response, problem, false);
}

}  // namespace

HttpConnection::HttpConnection(const Poco::Net::StreamSocket& socket, const Dispatcher& dispatcher,
                               const ServerOptions& options,
                               Poco::Net::HTTPServerParams::Ptr params,
                               ConnectionRegistry& registry)
    : TCPServerConnection(socket),
      dispatcher_(dispatcher),
      options_(options),
      params_(std::move(params)),
      registry_(registry) {}

void HttpConnection::run() {
  if (!registry_.add(socket())) return;
  try {
    serve();
  } catch (const Poco::Exception& error) {
    log::main().debug("connection from {} ended: {}", socket().peerAddress().toString(),
                      error.displayText());
  } catch (const std::exception& error) {
    log::main().debug("connection ended: {}", error.what());
  }
  registry_.remove(socket());
}

void HttpConnection::serve() {
  Session session(socket(), params_);
  // One timeout for waiting between requests and for reading one: an idle or
  // trickling client is dropped after keep_alive_timeout_seconds either way.
  socket().setReceiveTimeout(params_->getKeepAliveTimeout());
  // A client that stops reading must not hold a pool thread in writev() for ever.
  socket().setSendTimeout(params_->getTimeout());
  socket().setNoDelay(true);
  int remaining = params_->getMaxKeepAliveRequests();
  while (remaining != 0) {
    if (remaining > 0) --remaining;
    Poco::Net::HTTPServerResponseImpl response(session);
    std::unique_ptr<Poco::Net::HTTPServerRequestImpl> request;
    try {
      request = std::make_unique<Poco::Net::HTTPServerRequestImpl>(response, session, params_);
    } catch (const Poco::Net::NoMessageException&) {
      return;  // the client closed the connection between requests
    } catch (const Poco::TimeoutException&) {
      return;  // idle past the keep-alive timeout
    } catch (const Poco::Net::MessageException&) {
      refuseMalformed(response);
      return;
    }
    const std::string& version = request->getVersion();
    if (version != Poco::Net::HTTPMessage::HTTP_1_1 &&
        version != Poco::Net::HTTPMessage::HTTP_1_0) {
      refuseMalformed(response);  // "GET / junk": Poco takes any third word as the version
      return;
    }
    response.setDate(Poco::Timestamp());
    response.setVersion(request->getVersion());
    response.setKeepAlive(params_->getKeepAlive() && request->getKeepAlive() && remaining != 0);
    if (request->getExpectContinue()) response.sendContinue();
    if (auto takeOver = serveExchange(dispatcher_, options_, *request, response)) {
      // The socket closes with this connection object; the new owner gets a duplicate.
      const int fd = ::dup(socket().impl()->sockfd());
      if (fd >= 0) takeOver(fd, session.takeBuffered());
      return;
    }
    if (!response.getKeepAlive()) return;
  }
}

}  // namespace skinpulse::http
