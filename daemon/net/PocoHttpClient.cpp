#include "net/PocoHttpClient.hpp"

#include "common/HttpWaitClock.hpp"
#include "common/Log.hpp"
#include "net/DeadlineWatchdog.hpp"
#include "net/HttpUrl.hpp"
#include "net/PocoErrors.hpp"
#include "net/RequestHeaders.hpp"
#include "net/ResponseBody.hpp"
#include "net/TlsContext.hpp"

#include <Poco/Net/HTTPClientSession.h>
#include <Poco/Net/HTTPResponse.h>
#include <Poco/Net/HTTPSClientSession.h>
#include <Poco/Net/NetSSL.h>

#include <csignal>
#include <mutex>

#ifndef SKINPULSE_NET_VERSION
#error "SKINPULSE_NET_VERSION comes from daemon/net/net.cmake"
#endif

namespace skinpulse::net {

namespace {

using Clock = std::chrono::steady_clock;
using Error = sdk::HttpResponse::Error;

void ignoreSigpipeOnce() {
  static std::once_flag once;
  std::call_once(once, [] {
    struct sigaction current {};
    if (::sigaction(SIGPIPE, nullptr, &current) == 0 && current.sa_handler == SIG_DFL) {
      std::signal(SIGPIPE, SIG_IGN);
    }
  });
}

sdk::HttpResponse failure(const sdk::HttpRequest& request, Error error, std::string_view reason) {
  sdk::HttpResponse response;
  response.error = error;
  response.error_message = request.method + " " + net::redactUrl(request.url) + ": " +
                           net::redactQueryIn(std::string(reason), request.url);
  log::main().debug("http: {}", response.error_message);
  return response;
}

std::string timeoutReason(const sdk::HttpRequest& request) {
  return "no complete response within " + std::to_string(request.timeout.count()) + " ms";
}

bool sendsBody(const sdk::HttpRequest& request) {
  return !request.body.empty() || request.method == "POST" || request.method == "PUT" ||
         request.method == "PATCH";
}

/// RFC 9110 §6.4.1: no body after HEAD, 1xx, 204 and 304, whatever the headers say.
bool expectsBody(const std::string& method, int status) {
  return method != "HEAD" && status >= 200 && status != 204 && status != 304;
}

/// Closes at once, without reading what is left: a RST tells the server we are gone.
void closeNow(Poco::Net::HTTPClientSession& session) {
  try {
    session.abort();
  } catch (const Poco::Exception&) {
    // The peer may have closed first; the socket is released either way.
  }
}

}  // namespace

PocoHttpClient::PocoHttpClient(PocoHttpClientOptions options)
    : user_agent_(options.user_agent.empty() ? defaultUserAgent() : options.user_agent) {
  ignoreSigpipeOnce();
  Poco::Net::initializeSSL();
  try {
    tls_ = net::makeClientTlsContext(options.ca_location);
  } catch (...) {
    Poco::Net::uninitializeSSL();
    throw;
  }
  watchdog_ = std::make_unique<net::DeadlineWatchdog>();
}

PocoHttpClient::~PocoHttpClient() {
  watchdog_.reset();
  tls_.reset();
  Poco::Net::uninitializeSSL();
}

std::string PocoHttpClient::defaultUserAgent() { return "skinpulse/" SKINPULSE_NET_VERSION; }

// Both count towards the calling thread's HTTP wait (the cycle's fetch stage). A streamed
// body is parsed by the sink as it arrives, so a streaming source's parse is in there too.
sdk::HttpResponse PocoHttpClient::send(const sdk::HttpRequest& request) {
  const auto started = Clock::now();
  auto response = perform(request, nullptr);
  http_wait::add(Clock::now() - started);
  return response;
}

sdk::HttpResponse PocoHttpClient::stream(const sdk::HttpRequest& request, sdk::BodySink& sink) {
  const auto started = Clock::now();
  auto response = perform(request, &sink);
  http_wait::add(Clock::now() - started);
  return response;
}

sdk::HttpResponse PocoHttpClient::perform(const sdk::HttpRequest& request, sdk::BodySink* sink) {
  const auto started = Clock::now();
  const auto deadline = started + request.timeout;
  const auto url = net::parseHttpUrl(request.url);
  if (!url) {
    return failure(request, Error::kProtocol,
                   "not an absolute http(s) URL without credentials, spaces or controls");
  }
  Poco::Net::HTTPRequest head(Poco::Net::HTTPRequest::HTTP_GET, url->target,
                              Poco::Net::HTTPMessage::HTTP_1_1);
  if (auto problem = net::buildRequestHead(request, url->authority, user_agent_, head)) {
    return failure(request, Error::kProtocol, *problem);
  }
  if (sendsBody(request)) {
    head.setContentLength64(static_cast<Poco::Int64>(request.body.size()));
  }
  if (request.timeout.count() <= 0) return failure(request, Error::kTimeout, "timeout is zero");

  std::unique_ptr<Poco::Net::HTTPClientSession> session;
  if (url->secure) {
    session = std::make_unique<Poco::Net::HTTPSClientSession>(url->host, url->port, tls_);
  } else {
    session = std::make_unique<Poco::Net::HTTPClientSession>(url->host, url->port);
  }
  // Socket timeouts bound the steps before the watchdog can see the socket (connect, TLS
  // handshake); the watchdog then holds the exchange to the deadline as a whole.
  const Poco::Timespan step_timeout(
      std::chrono::duration_cast<std::chrono::microseconds>(request.timeout).count());
  session->setTimeout(step_timeout, step_timeout, step_timeout);
  session->setKeepAlive(false);

  net::DeadlineWatchdog::Watch watch;  // declared after session: released before it closes
  sdk::HttpResponse response;
  std::size_t streamed = 0;  // bytes handed to the sink, for the log line
  try {
    std::ostream& body_out = session->sendRequest(head);
    watch = watchdog_->watch(session->socket().impl()->sockfd(), deadline);
    body_out.exceptions(std::ios::badbit);  // rethrow Poco's exception rather than hide it
    body_out.write(request.body.data(), static_cast<std::streamsize>(request.body.size()));
    body_out.flush();

    Poco::Net::HTTPResponse head_in;
    session->receiveResponse(head_in);
    response.status = static_cast<int>(head_in.getStatus());
    for (const auto& [name, value] : head_in) response.headers.emplace_back(name, value);
    if (sink != nullptr && !sink->onHead(response.status, response.headers)) {
      closeNow(*session);  // the reader wants the head only (a 429, a 500)
      return response;
    }
    if (expectsBody(request.method, response.status)) {
      const auto failed =
          sink == nullptr ? net::receiveBody(*session, head_in, request, deadline, response.body)
                          : net::receiveBody(*session, head_in, request, deadline,
                                             [sink, &streamed](std::string_view piece) {
                                               streamed += piece.size();
                                               return sink->onBody(piece.data(), piece.size());
                                             });
      if (failed) {
        closeNow(*session);
        if (watch.expired()) return failure(request, Error::kTimeout, timeoutReason(request));
        return failure(request, failed->error, failed->reason);
      }
    }
    if (watch.expired()) return failure(request, Error::kTimeout, timeoutReason(request));
  } catch (const Poco::Exception& e) {
    closeNow(*session);
    if (watch.expired()) return failure(request, Error::kTimeout, timeoutReason(request));
    return failure(request, net::errorKindOf(e), e.displayText());
  } catch (const std::exception& e) {
    closeNow(*session);
    if (watch.expired()) return failure(request, Error::kTimeout, timeoutReason(request));
    return failure(request, Error::kProtocol, e.what());
  } catch (...) {
    // Only a plugin's sink can throw something else; the SDK says it must not.
    closeNow(*session);
    return failure(request, Error::kProtocol, "the reader threw");
  }
  const auto elapsed =
      std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - started);
  log::main().debug("http: {} {} -> {}, {} bytes in {} ms", request.method,
                    net::redactUrl(request.url), response.status,
                    sink == nullptr ? response.body.size() : streamed, elapsed.count());
  return response;
}

}  // namespace skinpulse::net
