#include "alerts/Sender.hpp"

#include "alerts/TargetCheck.hpp"
#include "net/DeadlineWatchdog.hpp"
#include "net/HttpUrl.hpp"
#include "net/TlsContext.hpp"

#include <Poco/Exception.h>
#include <Poco/Net/HTTPClientSession.h>
#include <Poco/Net/HTTPRequest.h>
#include <Poco/Net/HTTPResponse.h>
#include <Poco/Net/HTTPSClientSession.h>
#include <Poco/Net/NetException.h>
#include <Poco/Net/SecureStreamSocket.h>
#include <Poco/Net/StreamSocket.h>

#include <memory>
#include <mutex>

namespace skinpulse::alerts {
namespace {

using Clock = std::chrono::steady_clock;

Poco::Timespan span(std::chrono::milliseconds ms) {
  return Poco::Timespan(static_cast<Poco::Timespan::TimeDiff>(ms.count()) * 1000);
}

// One TLS context per CA location, made on first use (a daemon without https targets
// never loads the CA store for alerts).
Poco::Net::Context::Ptr tlsContext(const std::string& ca_location) {
  static std::mutex mutex;
  static Poco::Net::Context::Ptr context;
  std::lock_guard lock(mutex);
  if (context.isNull()) context = net::makeClientTlsContext(ca_location);
  return context;
}

SendOutcome retry(std::string error) {
  return SendOutcome{SendOutcome::Kind::kRetry, std::nullopt, std::move(error), ""};
}

SendOutcome final(std::string error) {
  return SendOutcome{SendOutcome::Kind::kFinal, std::nullopt, std::move(error), ""};
}

// What the deliveries list says of a refused target, whatever the reason: which names
// resolve inside the network, and to what, is not the rule owner's business.
constexpr const char* kTargetNotAllowed = "target not allowed";

std::string timeoutText(std::chrono::milliseconds timeout) {
  return "timeout: no complete answer within " + std::to_string(timeout.count()) + " ms";
}

}  // namespace

Sender::Sender(SenderOptions options)
    : options_(std::move(options)), watchdog_(std::make_unique<net::DeadlineWatchdog>()) {}

Sender::~Sender() = default;

SendOutcome::Kind Sender::classify(int status) {
  if (status >= 200 && status < 300) return SendOutcome::Kind::kDelivered;
  if (status == 429 || status >= 500) return SendOutcome::Kind::kRetry;
  return SendOutcome::Kind::kFinal;
}

SendOutcome Sender::post(const std::string& url, const std::string& body,
                         const std::vector<std::pair<std::string, std::string>>& headers) const {
  // The deadline covers the whole attempt, name resolution included: the delivery lease
  // (DeliveryWorkers) is this timeout plus a margin, and no byte may be sent after it.
  const auto deadline = Clock::now() + options_.timeout;
  const auto left = [&] {
    const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
    return std::max(ms, std::chrono::milliseconds(1));
  };
  const auto timedOut = [&] { return retry(timeoutText(options_.timeout)); };

  const auto target = net::parseHttpUrl(url);
  if (!target) return final("the target is not an absolute http(s) URL");
  if (!target->secure && !options_.allow_private_targets) {
    return final("the target is not https");
  }
  std::vector<Poco::Net::SocketAddress> addresses;
  try {
    addresses = resolveTarget(target->host, target->port, options_.allow_private_targets);
  } catch (const TargetRefused& refused) {
    SendOutcome outcome = final(kTargetNotAllowed);
    outcome.log_detail = refused.what();
    return outcome;
  }
  // getaddrinfo cannot be interrupted; a resolver slower than the deadline ends the
  // attempt before anything is sent.
  if (Clock::now() >= deadline) return timedOut();

  net::DeadlineWatchdog::Watch watch;
  try {
    // Connect to the checked addresses themselves: a second lookup could answer
    // differently (DNS rebinding).
    Poco::Net::StreamSocket plain;
    std::string connect_error = "no address";
    bool connected = false;
    for (const auto& address : addresses) {
      try {
        plain = Poco::Net::StreamSocket(address.family());
        plain.connect(address, span(left()));
        connected = true;
        break;
      } catch (const Poco::Exception& e) {
        connect_error = e.displayText();
      }
      if (Clock::now() >= deadline) break;
    }
    if (!connected) {
      if (Clock::now() >= deadline) return timedOut();
      return retry("connect failed: " + connect_error);
    }
    // From here the watchdog holds the exchange to the deadline as a whole: the socket
    // timeouts below only bound each single read or write.
    watch = watchdog_->watch(plain.impl()->sockfd(), deadline);
    plain.setReceiveTimeout(span(left()));
    plain.setSendTimeout(span(left()));

    std::unique_ptr<Poco::Net::HTTPClientSession> session;
    if (target->secure) {
      auto secure = Poco::Net::SecureStreamSocket::attach(plain, target->host,
                                                          tlsContext(options_.ca_location));
      session = std::make_unique<Poco::Net::HTTPSClientSession>(secure);
    } else {
      session = std::make_unique<Poco::Net::HTTPClientSession>(plain);
    }
    session->setKeepAlive(false);
    session->setTimeout(span(left()));

    Poco::Net::HTTPRequest request(Poco::Net::HTTPRequest::HTTP_POST, target->target,
                                   Poco::Net::HTTPMessage::HTTP_1_1);
    request.set("Host", target->authority);
    request.setContentType("application/json");
    request.setContentLength(static_cast<std::streamsize>(body.size()));
    request.set("User-Agent", "skinpulse-alerts");
    for (const auto& [name, value] : headers) request.set(name, value);
    session->sendRequest(request) << body;

    Poco::Net::HTTPResponse response;
    auto& in = session->receiveResponse(response);
    // The whole answer (up to the cap) must arrive before the deadline: a status line
    // followed by a body dripped a byte at a time is a timeout, not a delivery.
    char buffer[4096];
    std::size_t read = 0;
    while (read < options_.max_response_bytes && in) {
      in.read(buffer, static_cast<std::streamsize>(
                          std::min(sizeof buffer, options_.max_response_bytes - read)));
      const auto got = in.gcount();
      if (got <= 0) break;
      read += static_cast<std::size_t>(got);
    }
    if (watch.expired() || Clock::now() >= deadline) return timedOut();
    const int status = static_cast<int>(response.getStatus());
    SendOutcome outcome{classify(status), status, "", ""};
    if (outcome.kind != SendOutcome::Kind::kDelivered) {
      outcome.error = "the target answered " + std::to_string(status);
    }
    return outcome;
  } catch (const Poco::TimeoutException&) {
    return timedOut();
  } catch (const Poco::Exception& e) {
    if (watch.expired()) return timedOut();
    return retry("send failed: " + net::redactQueryIn(e.displayText(), url));
  } catch (const std::exception& e) {
    if (watch.expired()) return timedOut();
    return retry(std::string("send failed: ") + e.what());
  }
}

}  // namespace skinpulse::alerts
