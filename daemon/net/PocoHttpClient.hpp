#pragma once

// The daemon's sdk::HttpClient: every upstream call of every plugin goes through it.
// It enforces what the SDK promises (host.hpp): one deadline for the whole exchange, a
// byte cap on the decoded body, gzip/deflate/br decoding, verified TLS, and error messages
// that never show a URL's query string (it carries API keys).
//
// Thread safety: send() may be called from any number of threads at once. Each call opens
// its own connection (no keep-alive, no pooling: sources poll every few minutes).

#include "skinpulse/sdk/host.hpp"

#include <Poco/Net/Context.h>

#include <memory>
#include <string>

namespace skinpulse::net {

class DeadlineWatchdog;

struct PocoHttpClientOptions {
  /// Sent unless a request sets its own; empty means "skinpulse/<version>".
  std::string user_agent;
  /// Trusted CAs for https: a directory of hashed certificates or one PEM file.
  std::string ca_location = "/etc/ssl/certs";
};

class PocoHttpClient final : public sdk::HttpClient {
 public:
  /// Builds the TLS context once; throws Poco::Exception when `ca_location` is unusable.
  /// Starts one watchdog thread, which the destructor joins. Also ignores SIGPIPE if it
  /// still has its default action: OpenSSL writes with plain send(), and a peer that
  /// closes while we write must not kill the daemon.
  explicit PocoHttpClient(PocoHttpClientOptions options = {});
  ~PocoHttpClient();
  PocoHttpClient(const PocoHttpClient&) = delete;
  PocoHttpClient& operator=(const PocoHttpClient&) = delete;

  /// Performs `request`. Follows no redirects: a 3xx comes back as it is. Any method is
  /// sent as given; a body is sent with its Content-Length (always for POST, PUT, PATCH).
  sdk::HttpResponse send(const sdk::HttpRequest& request) override;

  /// send() with the decoded body handed to `sink` as it arrives (SDK ABI 1.2,
  /// docs/adr/0013-streaming-bodies.md): the same deadline, caps, decoding and errors;
  /// only a piece of at most 16 KiB of the body is held at a time.
  sdk::HttpResponse stream(const sdk::HttpRequest& request, sdk::BodySink& sink) override;

  /// "skinpulse/<version>".
  static std::string defaultUserAgent();

 private:
  /// The exchange behind both: the body collected into the answer when `sink` is null.
  sdk::HttpResponse perform(const sdk::HttpRequest& request, sdk::BodySink* sink);

  std::string user_agent_;
  Poco::Net::Context::Ptr tls_;
  std::unique_ptr<net::DeadlineWatchdog> watchdog_;
};

}  // namespace skinpulse::net
