#include "alerts/Sender.hpp"

#include "alerts/TargetCheck.hpp"
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
  return SendOutcome{SendOutcome::Kind::kRetry, std::nullopt, std::move(error)};
}

SendOutcome final(std::string error) {
  return SendOutcome{SendOutcome::Kind::kFinal, std::nullopt, std::move(error)};
}

}  // namespace

Sender::Sender(SenderOptions options) : options_(std::move(options)) {}

SendOutcome::Kind Sender::classify(int status) {
  if (status >= 200 && status < 300) return SendOutcome::Kind::kDelivered;
  if (status == 429 || status >= 500) return SendOutcome::Kind::kRetry;
  return SendOutcome::Kind::kFinal;
}

SendOutcome Sender::post(const std::string& url, const std::string& body,
                         const std::vector<std::pair<std::string, std::string>>& headers) const {
  const auto target = net::parseHttpUrl(url);
  if (!target) return final("the target is not an absolute http(s) URL");
  if (!target->secure && !options_.allow_private_targets) {
    return final("the target is not https");
  }
  std::vector<Poco::Net::SocketAddress> addresses;
  try {
    addresses = resolveTarget(target->host, target->port, options_.allow_private_targets);
  } catch (const TargetRefused& refused) {
    return final(refused.what());
  }

  const auto deadline = Clock::now() + options_.timeout;
  const auto left = [&] {
    const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
    return std::max(ms, std::chrono::milliseconds(1));
  };
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
    if (!connected) return retry("connect failed: " + connect_error);
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
    // Read (and drop) at most the cap of the answer; the status decides.
    char buffer[4096];
    std::size_t read = 0;
    while (read < options_.max_response_bytes && in && Clock::now() < deadline) {
      in.read(buffer, static_cast<std::streamsize>(
                          std::min(sizeof buffer, options_.max_response_bytes - read)));
      const auto got = in.gcount();
      if (got <= 0) break;
      read += static_cast<std::size_t>(got);
    }
    const int status = static_cast<int>(response.getStatus());
    SendOutcome outcome{classify(status), status, ""};
    if (outcome.kind != SendOutcome::Kind::kDelivered) {
      outcome.error = "the target answered " + std::to_string(status);
    }
    return outcome;
  } catch (const Poco::TimeoutException&) {
    return retry("timed out");
  } catch (const Poco::Exception& e) {
    return retry("send failed: " + net::redactQueryIn(e.displayText(), url));
  } catch (const std::exception& e) {
    return retry(std::string("send failed: ") + e.what());
  }
}

}  // namespace skinpulse::alerts
