#include "http/HttpConnection.hpp"

#include "skinpulse/sdk/url_encoding.hpp"

#include "common/Log.hpp"
#include "http/Framing.hpp"
#include "http/HeadScanner.hpp"
#include "http/HttpError.hpp"
#include "http/HttpServer.hpp"
#include "http/Problem.hpp"
#include "http/RequestMetrics.hpp"
#include "http/ResponseHead.hpp"

#include <boost/asio/post.hpp>
#include <boost/asio/write.hpp>

#include <array>
#include <cerrno>
#include <sys/sendfile.h>
#include <sys/socket.h>
#include <vector>

namespace skinpulse::http {
namespace asio = boost::asio;
namespace bhttp = boost::beast::http;
using boost::system::error_code;

namespace {

constexpr std::size_t kReadChunk = 16 * 1024;
// After a final answer: how long unread request bytes are drained, and how many, before
// the socket is closed (closing with unread bytes would reset the connection and could
// destroy the answer before the client reads it).
constexpr auto kLinger = std::chrono::seconds(2);
constexpr std::size_t kMaxDrained = 1 << 20;
// SO_SNDBUF of a connection (Linux doubles it). Without it the kernel's autotuning lets
// each socket buffer grow to net.ipv4.tcp_wmem's maximum (4 MiB): a thousand clients that
// pipeline large requests and never read made the loops copy gigabytes into socket
// buffers, seconds of work during which nobody else was served (test_front_door's slow
// readers). Bounded, a non-reader costs at most this much before its write waits (and its
// write deadline runs); the largest response (the items list at limit=500, ~220 KB)
// still goes out in one write.
constexpr int kSendBuffer = 256 * 1024;

bool isHttp10(std::string_view head) {
  const auto end = head.find("\r\n");
  const std::string_view line = head.substr(0, end);
  return line.size() >= 8 && line.substr(line.size() - 8) == "HTTP/1.0";
}

std::string kibText(std::size_t bytes) { return std::to_string(bytes / 1024) + " KiB"; }

// The path of the request line at the start of `buffer` ("" when the line is not there or
// not "METHOD SP /target SP ..."), for the headers of a refusal sent before the head was
// parsed: a framing error on a path whose owner declared no-store (Router::policy) still
// carries Cache-Control: no-store.
std::string requestLinePath(std::string_view buffer) {
  const auto end = buffer.find('\n');
  const std::string_view line = buffer.substr(0, end);
  const auto first = line.find(' ');
  if (end == std::string_view::npos || first == std::string_view::npos) return {};
  const std::string_view target = line.substr(first + 1, line.find(' ', first + 1) - first - 1);
  if (target.empty() || target.front() != '/') return {};
  return std::string(target.substr(0, target.find('?')));
}

}  // namespace

void EventLoop::closeAll() {
  const auto open = connections;  // close() erases from the set
  for (const auto& connection : open) connection->close();
}

void EventLoop::closeIdle() {
  const auto open = connections;  // close() erases from the set
  for (const auto& connection : open) {
    if (connection->idle()) connection->close();
  }
}

HttpConnection::HttpConnection(EventLoop& loop, const ServerShared& server,
                               asio::ip::tcp::socket socket, std::string address,
                               ConnectionSlot slot, bool via_proxy)
    : loop_(loop),
      server_(server),
      socket_(std::move(socket)),
      timer_(loop.context),
      address_(std::move(address)),
      slot_(std::move(slot)),
      via_proxy_(via_proxy) {}

void HttpConnection::start() {
  loop_.connections.insert(shared_from_this());
  error_code error;
  socket_.set_option(asio::ip::tcp::no_delay(true), error);
  socket_.set_option(asio::socket_base::send_buffer_size(kSendBuffer), error);
  socket_.non_blocking(true, error);
  std::weak_ptr<HttpConnection> weak = shared_from_this();
  slot_.setEvictor([weak, executor = socket_.get_executor()] {
    asio::post(executor, [weak] {
      if (const auto self = weak.lock()) self->evict();
    });
  });
  enterIdle();
  waitRead();
}

void HttpConnection::enterIdle() {
  phase_ = Phase::kIdle;
  slot_.setIdle(true);
  arm(server_.options.idle_timeout);
}

void HttpConnection::evict() {
  if (phase_ == Phase::kClosed) return;
  log::main().debug("http: closing an idle connection of {} to make room for another client",
                    address_);
  if (idle() || phase_ == Phase::kClosing) {
    close();
  } else {
    close_after_ = true;
  }
}

void HttpConnection::refuse() {
  loop_.connections.insert(shared_from_this());
  error_code error;
  socket_.non_blocking(true, error);
  started_ = Clock::now();
  fail(503, "too_many_connections", "too many open connections; try again shortly",
       {{"Retry-After", "1"}});
}

void HttpConnection::close() {
  if (phase_ == Phase::kClosed) return;
  phase_ = Phase::kClosed;
  disarm();
  error_code error;
  socket_.close(error);
  slot_.release();
  parser_.reset();
  buffer_.clear();
  buffer_.shrink_to_fit();
  loop_.connections.erase(shared_from_this());
}

void HttpConnection::arm(Clock::duration timeout) {
  const auto generation = ++timer_generation_;
  timer_.expires_after(timeout);
  timer_.async_wait([self = shared_from_this(), generation](const error_code& error) {
    if (error || generation != self->timer_generation_) return;
    self->onDeadline();
  });
}

void HttpConnection::disarm() {
  ++timer_generation_;
  timer_.cancel();
}

void HttpConnection::onDeadline() {
  switch (phase_) {
    case Phase::kIdle:
    case Phase::kClosing:
      close();
      break;
    case Phase::kHead:
      fail(408, "request_timeout", "the request head did not arrive in time");
      break;
    case Phase::kBody:
      fail(408, "request_timeout", "the request body did not arrive in time");
      break;
    case Phase::kWriting:
      // The client does not read its answer: abandoned (docs/api.md §11).
      log::main().debug("http: {} did not read its response in time", address_);
      close();
      break;
    case Phase::kHandling:
    case Phase::kClosed:
      break;
  }
}

void HttpConnection::waitRead() {
  if (reading_ || phase_ == Phase::kClosed) return;
  reading_ = true;
  socket_.async_wait(asio::socket_base::wait_read,
                     [self = shared_from_this()](const error_code& error) {
                       self->reading_ = false;
                       if (self->phase_ == Phase::kClosed) return;
                       if (error) {
                         self->close();
                         return;
                       }
                       self->onReadable();
                     });
}

void HttpConnection::onReadable() {
  // Busy with a request: what the client sends next waits in the socket (pipelining).
  if (phase_ == Phase::kHandling || phase_ == Phase::kWriting) return;
  thread_local std::array<char, kReadChunk> chunk;
  error_code error;
  const std::size_t size = socket_.read_some(asio::buffer(chunk), error);
  if (error == asio::error::would_block || error == asio::error::try_again) {
    waitRead();
    return;
  }
  if (error) {  // end of stream or reset: the client is gone
    close();
    return;
  }
  if (phase_ == Phase::kClosing) {
    drained_ += size;
    if (drained_ > kMaxDrained) {
      close();
    } else {
      waitRead();
    }
    return;
  }
  buffer_.append(chunk.data(), size);
  process();
}

void HttpConnection::process() {
  if (phase_ == Phase::kIdle) {
    // Empty lines before a request line are ignored (RFC 9112 §2.2).
    std::size_t skip = 0;
    while (skip + 1 < buffer_.size() && buffer_[skip] == '\r' && buffer_[skip + 1] == '\n') {
      skip += 2;
    }
    buffer_.erase(0, skip);
    if (buffer_.empty() || buffer_ == "\r") {
      waitRead();
      return;
    }
    phase_ = Phase::kHead;
    slot_.setIdle(false);
    started_ = Clock::now();
    method_.clear();
    path_.clear();
    route_ = Router::kUnmatchedRoute;
    arm(server_.options.head_timeout);
  }
  if (phase_ == Phase::kHead) {
    const HeadScan scan = scanHead(buffer_, server_.options.head);
    if (scan.state == HeadScan::State::kIncomplete) {
      waitRead();
      return;
    }
    if (scan.state == HeadScan::State::kRefused) {
      fail(scan.status, scan.code, scan.detail);
      return;
    }
    if (!beginMessage(scan.head_bytes)) return;
  }
  if (phase_ == Phase::kBody && readBody()) handle();
}

bool HttpConnection::beginMessage(std::size_t head_bytes) {
  const auto& options = server_.options;
  const std::string_view head(buffer_.data(), head_bytes);
  const Framing framing = readFraming(head, isHttp10(head));
  if (!framing.valid) {
    fail(400, "invalid_request", framing.detail);
    return false;
  }
  parser_.emplace();
  parser_->header_limit(
      static_cast<std::uint32_t>(options.head.max_line_bytes + options.head.max_header_bytes + 16));
  // A route may take a larger (or smaller) body than the server's cap (a CSV upload):
  // asked from the request line, before the parser reads a byte of the body.
  const std::string_view method = head.substr(0, head.find(' '));
  body_limit_ = server_.dispatcher.bodyLimit(method, requestLinePath(head), options.max_body_bytes);
  parser_->body_limit(body_limit_);
  parser_->eager(true);
  error_code error;
  const std::size_t used = parser_->put(asio::buffer(head.data(), head.size()), error);
  if (error == bhttp::error::need_more) error = {};
  if (!error && (!parser_->is_header_done() || used != head_bytes)) {
    error = bhttp::error::bad_version;  // any parse failure; answered alike below
  }
  if (!error) {
    const auto& message = parser_->get();
    method_ = std::string(message.method_string());
    const auto target = message.target();
    path_ = std::string(target.substr(0, target.find('?')));
    http10_ = message.version() == 10;
    if (message.version() != 10 && message.version() != 11) {
      fail(400, "invalid_request", "unsupported HTTP version");
      return false;
    }
  }
  // A head the parser refused (a body over the cap among them) still names its path, for
  // the refusal's headers and the access log.
  if (path_.empty()) path_ = requestLinePath(head);
  buffer_.erase(0, head_bytes);
  if (framing.content_length > body_limit_ || error == bhttp::error::body_limit) {
    fail(413, "payload_too_large", "request body over " + kibText(body_limit_));
    return false;
  }
  if (error) {
    fail(400, "invalid_request", "malformed HTTP request");
    return false;
  }
  phase_ = Phase::kBody;
  if (!parser_->is_done()) {
    arm(options.body_timeout);
    if (framing.expect_continue && buffer_.empty()) sendContinue();
  }
  return true;
}

void HttpConnection::sendContinue() {
  // Nothing else is being written (a request is read only after the last answer went
  // out), so the socket's buffer takes these few bytes whole; if not, the client sends
  // its body after its own wait anyway.
  static constexpr std::string_view kContinue = "HTTP/1.1 100 Continue\r\n\r\n";
  error_code error;
  socket_.write_some(asio::buffer(kContinue.data(), kContinue.size()), error);
}

bool HttpConnection::readBody() {
  const auto& options = server_.options;
  while (!parser_->is_done()) {
    if (buffer_.empty()) {
      waitRead();
      return false;
    }
    error_code error;
    const std::size_t used = parser_->put(asio::buffer(buffer_), error);
    buffer_.erase(0, used);
    if (error == bhttp::error::body_limit) {
      fail(413, "payload_too_large", "request body over " + kibText(body_limit_));
      return false;
    }
    if (error == bhttp::error::need_more || (!error && used == 0)) {
      // A chunk header or trailer that never ends must not grow the buffer unbounded.
      if (buffer_.size() > options.head.max_header_bytes + kReadChunk) {
        fail(400, "invalid_request", "malformed chunked body");
        return false;
      }
      waitRead();
      return false;
    }
    if (error) {
      fail(400, "invalid_request", "malformed request body");
      return false;
    }
  }
  return true;
}

void HttpConnection::handle() {
  disarm();
  phase_ = Phase::kHandling;
  auto& message = parser_->get();
  auto request = std::make_shared<Request>();
  request->method = method_;
  request->target = std::string(message.target());
  request->client_address = address_;
  for (const auto& field : message) {
    request->headers.emplace_back(std::string(field.name_string()), std::string(field.value()));
  }
  request->body = std::move(message.body());
  keep_alive_ = message.keep_alive();
  parser_.reset();
  if (!chargeForwardedClient(*request)) {
    // The forwarded client already holds its share: refused like a direct client would
    // be at accept (docs/api.md §11); the proxy opens a fresh connection for the next.
    fail(503, "too_many_connections", "too many open connections; try again shortly",
         {{"Retry-After", "1"}});
    return;
  }
  request->connection = slot_.handle();

  Response response;
  const std::string_view target = request->target;
  const auto question = target.find('?');
  const auto path = sdk::percentDecode(target.substr(0, question), false);
  if (!path) {
    // The body was read whole, so the connection stays usable.
    respondProblem(HttpError(400, "invalid_parameter", "malformed percent-encoding in path"));
    return;
  }
  request->path = *path;
  path_ = *path;
  if (question != std::string_view::npos) request->query = request->target.substr(question + 1);
  auto params = sdk::parseQuery(request->query);
  if (!params) {
    respondProblem(HttpError(400, "invalid_parameter", "malformed percent-encoding in query"));
    return;
  }
  request->query_params = std::move(*params);

  const Dispatcher& dispatcher = server_.dispatcher;
  auto match = dispatcher.route(*request);
  route_ = match.route;
  if (match.options.runs_inline && match.options.needs_session &&
      match.options.needs_session(*request)) {
    match.options.runs_inline = false;  // the guard loads the session on a worker
  }
  bool admitted = false;
  if (match.handler == nullptr || match.options.runs_inline) {
    request->may_defer = match.handler != nullptr;
    dispatcher.dispatch(*request, response, match);
    if (!response.run_on_worker) {
      respond(std::move(response));
      return;
    }
    // The handler could not answer from memory (a history cache miss): the worker runs
    // it again, with the guard's admission kept.
    request->may_defer = false;
    admitted = true;
  }
  WorkerPool::Task task = [self = shared_from_this(), request, match = std::move(match), admitted] {
    auto answer = std::make_shared<Response>();
    self->server_.dispatcher.dispatch(*request, *answer, match, admitted);
    asio::post(self->socket_.get_executor(), [self, answer] { self->respond(std::move(*answer)); });
  };
  if (!server_.pool.trySubmit(task)) {
    respondProblem(HttpError(503, "overloaded", "the server is busy; try again shortly",
                             {{"Retry-After", "1"}}));
  }
}

bool HttpConnection::chargeForwardedClient(const Request& request) {
  if (!via_proxy_ || server_.options.proxies == nullptr) return true;
  const std::string key = rateLimitKey(server_.options.proxies->clientAddress(request));
  // A request of the proxy's own (a health check, no X-Forwarded-For) names no client:
  // the connection stays where it is, and the proxy is never capped as one client.
  if (key == rateLimitKey(address_)) return true;
  return slot_.rekey(key);
}

void HttpConnection::fail(int status, const char* code, const std::string& detail,
                          HttpError::Headers headers) {
  parser_.reset();
  close_after_ = true;
  respondProblem(HttpError(status, code, detail, std::move(headers)));
}

void HttpConnection::respondProblem(const HttpError& error) {
  Response response;
  renderProblem(error, response);
  server_.dispatcher.applyHeaders(path_.empty() ? requestLinePath(buffer_) : path_, {}, response);
  respond(std::move(response));
}

void HttpConnection::respond(Response response) {
  if (phase_ == Phase::kClosed) return;
  const auto& options = server_.options;
  if (const auto field = unsafeHeaderField(response)) {
    // A handler bug (client text copied into a header): never sent, or the client could
    // add header fields or a response of its own. The log escapes the name.
    log::main().error(
        "http: {} {} answered header field '{}' with CR, LF or NUL in it or "
        "an invalid name; answering 500 instead",
        method_.empty() ? "-" : method_, path_.empty() ? "-" : path_, *field);
    Response problem;
    renderProblem(HttpError(500, "internal_error", "the server could not complete the request"),
                  problem);
    server_.dispatcher.applyHeaders(path_, {}, problem);
    response = std::move(problem);
  }
  ++served_;
  upgrade_ = response.status == 101 && response.take_over && method_ == "GET";
  // A stopping server answers what it was asked, then closes (the client reconnects
  // elsewhere instead of sending its next request to a closed socket).
  if (server_.draining.load(std::memory_order_relaxed)) close_after_ = true;
  const bool keep = keep_alive_ && !close_after_ && served_ < options.max_keep_alive_requests;
  if (!keep) close_after_ = true;
  response_ = std::move(response);
  const std::string_view body = response_.bodyView();
  ConnectionHeader connection = ConnectionHeader::kNone;
  if (upgrade_) {
    connection = ConnectionHeader::kNone;  // the handler set Connection: Upgrade
  } else if (close_after_) {
    connection = ConnectionHeader::kClose;
  } else if (http10_) {
    connection = ConnectionHeader::kKeepAlive;
  }
  head_ = responseHead(response_, body.size(), connection);
  phase_ = Phase::kWriting;
  arm(options.write_timeout);
  const bool send_body = method_ != "HEAD" && response_.status >= 200 && !body.empty();
  if (send_body && response_.shared_body && response_.shared_body_fd >= 0) {
    writeHeadThenFile();
    return;
  }
  std::vector<asio::const_buffer> parts{asio::buffer(head_)};
  if (send_body) parts.push_back(asio::buffer(body.data(), body.size()));
  asio::async_write(socket_, parts,
                    [self = shared_from_this()](const error_code& error, std::size_t) {
                      self->onWritten(error);
                    });
}

void HttpConnection::writeHeadThenFile() {
  // The head with MSG_MORE, so it leaves in the body's first segment (nginx's tcp_nopush
  // does the same with TCP_CORK); what the socket does not take now goes asynchronously.
  std::size_t sent = 0;
  while (sent < head_.size()) {
    const ssize_t n = ::send(socket_.native_handle(), head_.data() + sent, head_.size() - sent,
                             MSG_MORE | MSG_NOSIGNAL);
    if (n > 0) {
      sent += static_cast<std::size_t>(n);
    } else if (n < 0 && errno == EINTR) {
      continue;
    } else {
      break;
    }
  }
  if (sent == head_.size()) {
    sendFile(0);
    return;
  }
  if (errno != EAGAIN && errno != EWOULDBLOCK) {
    onWritten(error_code(errno, boost::system::system_category()));
    return;
  }
  asio::async_write(socket_, asio::buffer(head_.data() + sent, head_.size() - sent),
                    [self = shared_from_this()](const error_code& error, std::size_t) {
                      if (error) {
                        self->onWritten(error);
                      } else {
                        self->sendFile(0);
                      }
                    });
}

void HttpConnection::sendFile(std::size_t offset) {
  if (phase_ == Phase::kClosed) return;
  // response_ owns shared_body, which keeps the descriptor open until onWritten.
  const int fd = response_.shared_body_fd;
  const std::size_t size = response_.shared_body->size();
  while (offset < size) {
    off_t position = static_cast<off_t>(offset);
    const ssize_t n = ::sendfile(socket_.native_handle(), fd, &position, size - offset);
    if (n > 0) {
      offset += static_cast<std::size_t>(n);
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
      socket_.async_wait(asio::socket_base::wait_write,
                         [self = shared_from_this(), offset](const error_code& error) {
                           if (error) {
                             self->onWritten(error);
                           } else {
                             self->sendFile(offset);
                           }
                         });
      return;
    }
    // 0 bytes from a sealed file of known size, or an error: the response cannot finish.
    onWritten(n == 0 ? make_error_code(boost::system::errc::io_error)
                     : error_code(errno, boost::system::system_category()));
    return;
  }
  onWritten({});
}

void HttpConnection::onWritten(const error_code& error) {
  if (phase_ == Phase::kClosed) return;
  if (server_.options.record_metrics) {
    recordRequest(route_, method_, response_.status,
                  std::chrono::duration<double>(Clock::now() - started_).count());
  }
  if (server_.options.access_log) {
    const double ms = std::chrono::duration<double, std::milli>(Clock::now() - started_).count();
    log::access().info("{} {} {} {:.3f}ms {}", method_.empty() ? "-" : method_,
                       path_.empty() ? "-" : path_, response_.status, ms, address_);
  }
  if (error) {
    close();
    return;
  }
  if (upgrade_) {
    handOver();
    return;
  }
  if (close_after_) {
    gracefulClose();
    return;
  }
  response_ = Response();
  std::string().swap(head_);
  // An idle connection keeps no buffer capacity: thousands of them cost little.
  if (buffer_.empty()) std::string().swap(buffer_);
  enterIdle();
  process();
}

void HttpConnection::handOver() {
  auto self = shared_from_this();
  auto take_over = std::move(response_.take_over);
  disarm();
  phase_ = Phase::kClosed;
  loop_.connections.erase(self);
  error_code error;
  socket_.non_blocking(false, error);
  const int fd = socket_.release(error);
  if (error || fd < 0) return;
  take_over(fd, std::move(buffer_), std::move(slot_));
}

void HttpConnection::gracefulClose() {
  phase_ = Phase::kClosing;
  buffer_.clear();
  error_code error;
  socket_.shutdown(asio::ip::tcp::socket::shutdown_send, error);
  if (error) {
    close();
    return;
  }
  arm(kLinger);
  waitRead();
}

}  // namespace skinpulse::http
