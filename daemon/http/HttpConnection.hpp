#pragma once

// HttpConnection: one client connection of the HttpServer, owned by one event loop and
// touched only on that loop's thread (docs/adr/0010-front-door.md). A state machine:
// idle (keep-alive deadline) → head (HeadScanner, Framing, Beast's parser; head
// deadline from its first byte) → body (Beast, body limit and deadline; 100 Continue) →
// handling (inline, or on the WorkerPool with the answer posted back) → writing (write
// deadline) → idle again, or a graceful close (FIN, then unread bytes drained for a
// moment so the answer is not lost to a reset). It reads only while it needs bytes, so
// a pipelining client waits in its socket buffer, answered in order. A 101 hands the
// descriptor, the bytes read beyond the request and the connection's slot to
// Response::take_over. Internal to daemon/http: only HttpServer creates connections.

#include "http/ConnectionLimiter.hpp"
#include "http/Dispatcher.hpp"
#include "http/HttpError.hpp"
#include "http/WorkerPool.hpp"

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/beast/http/parser.hpp>
#include <boost/beast/http/string_body.hpp>

#include <atomic>
#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <unordered_set>

namespace skinpulse::http {

struct ServerOptions;
class HttpConnection;

/// One event loop: an io_context run by one thread, and the connections it owns.
struct EventLoop {
  boost::asio::io_context context{1};
  /// Open connections, for stop(); only the loop's thread touches it.
  std::unordered_set<std::shared_ptr<HttpConnection>> connections;
  std::thread thread;

  /// Closes every connection (on the loop's thread).
  void closeAll();
  /// Closes the connections waiting for a request (on the loop's thread): a stopping
  /// server lets the others finish the request they are on.
  void closeIdle();
};

/// What every connection of a server uses; outlives them (HttpServer::stop() joins the
/// loops and the pool first).
struct ServerShared {
  const Dispatcher& dispatcher;
  const ServerOptions& options;
  WorkerPool& pool;
  /// The server is stopping: every answer closes its connection (Connection: close).
  std::atomic<bool> draining{false};
};

class HttpConnection : public std::enable_shared_from_this<HttpConnection> {
 public:
  HttpConnection(EventLoop& loop, const ServerShared& server, boost::asio::ip::tcp::socket socket,
                 std::string address, ConnectionSlot slot, bool via_proxy = false);

  /// Starts serving (on the loop's thread).
  void start();
  /// Answers 503 too_many_connections and closes (on the loop's thread).
  void refuse();
  /// Closes the socket at once and leaves the loop.
  void close();
  /// The limiter gave this connection's place to another client (near the global cap):
  /// closes it now when idle, else after the answer in progress.
  void evict();
  /// Waiting for a request, none of it received (a stopping server may close it).
  bool idle() const { return phase_ == Phase::kIdle && buffer_.empty(); }

 private:
  enum class Phase { kIdle, kHead, kBody, kHandling, kWriting, kClosing, kClosed };
  using Clock = std::chrono::steady_clock;

  void arm(Clock::duration timeout);
  void disarm();
  void onDeadline();
  void waitRead();
  void onReadable();
  void process();
  bool beginMessage(std::size_t head_bytes);
  bool readBody();
  void handle();
  /// From a trusted proxy: charges the connection to the request's forwarded client
  /// (every request; a proxy may reuse a connection for several clients). False when
  /// that client is at its cap.
  bool chargeForwardedClient(const Request& request);
  void fail(int status, const char* code, const std::string& detail,
            HttpError::Headers headers = {});
  /// Answers `error` as problem+json with the security headers; the connection stays
  /// open unless fail() decided otherwise.
  void respondProblem(const HttpError& error);
  void respond(Response response);
  /// Marks the connection idle (waiting for a request) or busy for the limiter.
  void enterIdle();
  /// A body with a sealed file (Response::shared_body_fd): the head, then sendfile.
  void writeHeadThenFile();
  void sendFile(std::size_t offset);
  void onWritten(const boost::system::error_code& error);
  void handOver();
  void gracefulClose();
  void sendContinue();

  EventLoop& loop_;
  const ServerShared& server_;
  boost::asio::ip::tcp::socket socket_;
  boost::asio::steady_timer timer_;
  std::uint64_t timer_generation_ = 0;
  const std::string address_;
  ConnectionSlot slot_;
  /// The peer is a trusted proxy: every request re-keys the slot to its client.
  const bool via_proxy_;
  Phase phase_ = Phase::kIdle;
  bool reading_ = false;
  std::string buffer_;  ///< received, not yet parsed
  std::optional<boost::beast::http::request_parser<boost::beast::http::string_body>> parser_;
  // The request being answered.
  Clock::time_point started_;
  std::string method_;
  std::string path_;
  std::string_view route_ = Router::kUnmatchedRoute;  ///< the metrics' label
  std::size_t body_limit_ = 0;  ///< this request's body cap (Router::bodyLimit)
  bool http10_ = false;
  bool keep_alive_ = true;
  bool close_after_ = false;
  int served_ = 0;
  std::size_t drained_ = 0;
  // The response being written (owns the bytes the write refers to).
  Response response_;
  std::string head_;
  bool upgrade_ = false;
};

}  // namespace skinpulse::http
