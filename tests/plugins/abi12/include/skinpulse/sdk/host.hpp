#pragma once

// Host: the plugin's only window on the daemon. The daemon creates one Host per plugin
// instance and keeps it alive for longer than the instance; plugins never delete it.
//
// Thread safety: every service is safe to call from any thread, concurrently.

#include "skinpulse/sdk/types.hpp"

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace skinpulse::sdk {

/// Severity of a log line written through Logger.
enum class LogLevel { kDebug = 0, kInfo = 1, kWarn = 2, kError = 3 };

/// Writes to the daemon's log, prefixed with the plugin instance's name. Never log
/// secrets (API keys, tokens, cookies): the host does not scrub messages.
class Logger {
 public:
  virtual void log(LogLevel level, std::string_view message) = 0;

  void debug(std::string_view m) { log(LogLevel::kDebug, m); }
  void info(std::string_view m) { log(LogLevel::kInfo, m); }
  void warn(std::string_view m) { log(LogLevel::kWarn, m); }
  void error(std::string_view m) { log(LogLevel::kError, m); }

 protected:
  ~Logger() = default;
};

/// An outbound HTTP request. `timeout` bounds the whole exchange (connect, send, receive);
/// `max_body_bytes` bounds the response body after content decoding: the host stops
/// reading as soon as the cap is passed and answers Error::kTooLarge.
struct HttpRequest {
  std::string method = "GET";
  std::string url;  ///< absolute http:// or https:// URL, query already encoded
  Fields headers;
  std::string body;
  std::chrono::milliseconds timeout{30000};
  std::size_t max_body_bytes = 8u * 1024u * 1024u;
};

/// The answer to an HttpRequest. When `error` is not kNone, `status` and `body` are
/// meaningless and `error_message` says what happened (without the URL's query string).
struct HttpResponse {
  enum class Error { kNone, kTimeout, kTooLarge, kConnect, kProtocol };
  Error error = Error::kNone;
  std::string error_message;
  int status = 0;
  Fields headers;  ///< names as sent; look them up with header()
  std::string body;

  /// Case-insensitive header lookup; empty optional when absent.
  std::optional<std::string> header(std::string_view name) const {
    for (const auto& [key, value] : headers) {
      if (key.size() == name.size()) {
        bool same = true;
        for (std::size_t i = 0; i < key.size() && same; ++i) {
          same = asciiLower(key[i]) == asciiLower(name[i]);
        }
        if (same) return value;
      }
    }
    return std::nullopt;
  }

 private:
  static char asciiLower(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c + 32) : c; }
};

/// Since ABI 1.2 (docs/adr/0013-streaming-bodies.md): the receiving end of
/// HttpClient::stream(), implemented by the plugin. The host calls it on the thread that
/// called stream(), never after stream() returned. Its functions must not throw (an
/// exception is caught and the exchange fails as kProtocol).
class BodySink {
 public:
  /// Once, when the response's head has arrived and before any body byte. Answer false to
  /// leave the body unread (a 429 or a 500 whose body is of no use): the host closes the
  /// connection and stream() returns the status and headers without error.
  virtual bool onHead(int status, const Fields& headers) = 0;
  /// The next decoded bytes of the body, in order, in pieces of at most 16 KiB whose
  /// boundaries mean nothing (a token of the document may straddle two). Answer false to
  /// stop: the host closes the connection and stream() fails as kProtocol ("stopped by the
  /// reader"), which the plugin, having said stop, knows the reason of.
  virtual bool onBody(const char* data, std::size_t size) = 0;

 protected:
  ~BodySink() = default;
};

/// HTTP(S) client shared by every plugin. Plugins must use it for all upstream calls:
/// it enforces timeouts and byte caps, decodes gzip and br, and verifies TLS.
class HttpClient {
 public:
  virtual HttpResponse send(const HttpRequest& request) = 0;

  /// Since ABI 1.2 (docs/adr/0013-streaming-bodies.md): `request` as send() would perform
  /// it, with the decoded body handed to `sink` as it arrives instead of collected, so a
  /// plugin reading a feed of hundreds of MB holds only what it keeps of it. The same
  /// rules hold: `timeout` bounds the whole exchange (the sink's own time included),
  /// `max_body_bytes` caps the decoded bytes handed to the sink (past it: kTooLarge, and the
  /// sink has seen only a prefix), gzip/deflate/br are decoded. The answer carries the
  /// status, headers and error as send() does; its `body` stays empty. After any error the
  /// sink's bytes are a prefix of the body, never the whole of it: a plugin keeps nothing
  /// of them. Only a host of ABI >= 1.2 has this entry, and only such a host loads a plugin
  /// built against these headers, so a plugin may call it unconditionally. The default
  /// (test doubles that only answer send()) hands the body over after send() returned it whole.
  virtual HttpResponse stream(const HttpRequest& request, BodySink& sink) {
    HttpResponse response = send(request);
    if (response.error != HttpResponse::Error::kNone) return response;
    std::string body;
    body.swap(response.body);
    if (!sink.onHead(response.status, response.headers)) return response;
    constexpr std::size_t kPiece = 16 * 1024;
    for (std::size_t at = 0; at < body.size(); at += kPiece) {
      const std::size_t size = body.size() - at < kPiece ? body.size() - at : kPiece;
      if (!sink.onBody(body.data() + at, size)) {
        response.error = HttpResponse::Error::kProtocol;
        response.error_message = "stopped by the reader";
        break;
      }
    }
    return response;
  }

 protected:
  ~HttpClient() = default;
};

/// The plugin instance's configuration: the keys of its INI section (`[source.NAME]`),
/// or for identity providers the values derived from their environment variables.
/// Keys the plugin did not declare in its descriptor are rejected by the host before
/// the instance is created, so a plugin sees only keys it knows.
class Config {
 public:
  virtual std::optional<std::string> get(std::string_view key) const = 0;
  virtual std::vector<std::string> keys() const = 0;

  std::string getString(std::string_view key, std::string_view fallback) const {
    auto value = get(key);
    return value ? *value : std::string(fallback);
  }

 protected:
  ~Config() = default;
};

/// Wall clock, replaceable in tests.
class Clock {
 public:
  virtual std::int64_t nowUnixMillis() const = 0;
  std::int64_t nowUnixSeconds() const { return nowUnixMillis() / 1000; }

 protected:
  ~Clock() = default;
};

/// Read-only view of the item catalogue. Lookups by name are exact (after the host's
/// trimming); the catalogue may grow while the daemon runs, never shrink.
class Catalog {
 public:
  virtual std::optional<CatalogItem> findByName(std::string_view market_hash_name) const = 0;
  virtual std::optional<CatalogItem> findById(std::int64_t id) const = 0;
  virtual std::size_t size() const = 0;
  /// Calls `visit` for every item in id order; stops early when it returns false.
  virtual void forEach(const std::function<bool(const CatalogItem&)>& visit) const = 0;
  /// Since ABI 1.1: ids of the items someone holds in a portfolio, ascending, so a source
  /// that can poll only a few items per minute (docs/api.md §1.2) polls those first.
  /// Read from the database on every call: call it once per fetch, not per item.
  virtual std::vector<std::int64_t> heldItemIds() const { return {}; }

 protected:
  ~Catalog() = default;
};

/// Everything the daemon offers a plugin instance.
class Host {
 public:
  /// Name of this instance: NAME in `[source.NAME]`, or the provider name (`idp-a`).
  virtual std::string instanceName() const = 0;
  virtual Logger& logger() = 0;
  virtual HttpClient& http() = 0;
  virtual const Clock& clock() const = 0;
  virtual const Config& config() const = 0;
  virtual const Catalog& catalog() const = 0;
  /// `bytes` bytes from a cryptographically secure generator, base64url without padding.
  virtual std::string randomToken(std::size_t bytes) = 0;

 protected:
  ~Host() = default;
};

}  // namespace skinpulse::sdk
