#include "http/HttpServer.hpp"

#include "common/Log.hpp"
#include "http/ConnectionLimiter.hpp"
#include "http/HttpConnection.hpp"
#include "http/WorkerPool.hpp"

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ip/v6_only.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>

#include <algorithm>
#include <future>
#include <optional>
#include <stdexcept>
#include <thread>
#include <vector>

namespace skinpulse::http {
namespace asio = boost::asio;
using asio::ip::tcp;
using boost::system::error_code;

namespace {

std::string addressText(const asio::ip::address& address) {
  if (address.is_v6() && address.to_v6().is_v4_mapped()) {
    return asio::ip::make_address_v4(asio::ip::v4_mapped, address.to_v6()).to_string();
  }
  return address.to_string();
}

bool viaTrustedProxy(const ServerOptions& options, const std::string& address) {
  if (options.proxies == nullptr || options.proxies->empty()) return false;
  Poco::Net::IPAddress parsed;
  return Poco::Net::IPAddress::tryParse(address, parsed) && options.proxies->contains(parsed);
}

}  // namespace

struct HttpServer::Impl {
  Impl(const Dispatcher& dispatcher, const ServerOptions& options)
      : limiter(options.max_connections, options.max_connections_per_ip,
                options.max_websockets_per_client) {
    int count = options.event_threads;
    if (count <= 0) count = static_cast<int>(std::max(1U, std::thread::hardware_concurrency()));
    for (int i = 0; i < count; ++i) loops.push_back(std::make_unique<EventLoop>());
    for (auto& loop : loops) guards.emplace_back(loop->context.get_executor());
    pool = std::make_unique<WorkerPool>(options.worker_threads,
                                        static_cast<std::size_t>(options.worker_queue));
    // Not movable (its atomic): built in place.
    shared.reset(new ServerShared{dispatcher, options, *pool});
    acceptor = std::make_unique<tcp::acceptor>(loops.front()->context);
    retry = std::make_unique<asio::steady_timer>(loops.front()->context);
  }

  void accept();
  void onAccepted(EventLoop& loop, const error_code& error, tcp::socket socket);

  // Destroyed in reverse: the acceptor and the pool's tasks (which may own connections)
  // go before the loops whose io_contexts they use.
  std::vector<std::unique_ptr<EventLoop>> loops;
  std::vector<asio::executor_work_guard<asio::io_context::executor_type>> guards;
  std::unique_ptr<WorkerPool> pool;
  std::unique_ptr<ServerShared> shared;
  ConnectionLimiter limiter;
  std::unique_ptr<tcp::acceptor> acceptor;
  std::unique_ptr<asio::steady_timer> retry;
  std::size_t next = 0;
  bool running = false;
};

void HttpServer::Impl::accept() {
  EventLoop& loop = *loops[next++ % loops.size()];
  acceptor->async_accept(asio::any_io_executor(loop.context.get_executor()),
                         [this, &loop](const error_code& error, tcp::socket socket) {
                           onAccepted(loop, error, std::move(socket));
                         });
}

void HttpServer::Impl::onAccepted(EventLoop& loop, const error_code& error, tcp::socket socket) {
  if (error == asio::error::operation_aborted || !acceptor->is_open()) return;
  if (error) {
    // Out of descriptors, most likely: wait a moment instead of spinning.
    log::main().warn("http: accept failed: {}", error.message());
    retry->expires_after(std::chrono::milliseconds(100));
    retry->async_wait([this](const error_code& waited) {
      if (!waited && acceptor->is_open()) accept();
    });
    return;
  }
  error_code peer_error;
  const auto peer = socket.remote_endpoint(peer_error);
  if (!peer_error) {
    std::string address = addressText(peer.address());
    // A trusted proxy carries many clients: its connections are charged to the client a
    // request names (HttpConnection::handle), not to the proxy as one client.
    const bool via_proxy = viaTrustedProxy(shared->options, address);
    auto slot = limiter.tryAcquire(rateLimitKey(address), via_proxy);
    const bool refused = !slot.has_value();
    auto connection =
        std::make_shared<HttpConnection>(loop, *shared, std::move(socket), std::move(address),
                                         refused ? ConnectionSlot() : std::move(*slot), via_proxy);
    asio::post(loop.context, [connection, refused] {
      if (refused) {
        connection->refuse();
      } else {
        connection->start();
      }
    });
  }
  accept();
}

HttpServer::HttpServer(const Router& router, ServerOptions options)
    : dispatcher_(router, options.guard), options_(std::move(options)) {}

HttpServer::~HttpServer() { stop(); }

void HttpServer::start() {
  auto impl = std::make_unique<Impl>(dispatcher_, options_);
  try {
    tcp::resolver resolver(impl->loops.front()->context);
    const auto endpoints =
        resolver.resolve(options_.host, std::to_string(options_.port), tcp::resolver::passive);
    if (endpoints.empty()) throw std::runtime_error("cannot resolve " + options_.host);
    const tcp::endpoint endpoint = *endpoints.begin();
    impl->acceptor->open(endpoint.protocol());
    impl->acceptor->set_option(tcp::acceptor::reuse_address(true));
    // "[::]" serves IPv4 too (dual stack), whatever net.ipv6.bindv6only says; IPv4
    // peers then appear as ::ffff:a.b.c.d, which addressText() unmaps.
    if (endpoint.address().is_v6()) impl->acceptor->set_option(asio::ip::v6_only(false));
    impl->acceptor->bind(endpoint);
    impl->acceptor->listen(4096);
    port_ = impl->acceptor->local_endpoint().port();
  } catch (const boost::system::system_error& error) {
    throw std::runtime_error("cannot listen on " + options_.host + ":" +
                             std::to_string(options_.port) + ": " + error.what());
  }
  impl->accept();
  for (auto& loop : impl->loops) {
    EventLoop* raw = loop.get();
    loop->thread = std::thread([raw] {
      while (true) {
        try {
          raw->context.run();
          return;
        } catch (const std::exception& error) {
          log::main().error("http event loop: {}", error.what());
        }
      }
    });
  }
  impl->running = true;
  impl_ = std::move(impl);
}

namespace {

// How many connections `loop` still holds, asked on its thread (closing the idle ones
// first); nullopt when the loop does not answer by `deadline`.
std::optional<std::size_t> closeIdleAndCount(EventLoop& loop,
                                             std::chrono::steady_clock::time_point deadline) {
  auto counted = std::make_shared<std::promise<std::size_t>>();
  auto answer = counted->get_future();
  asio::post(loop.context, [&loop, counted] {
    loop.closeIdle();
    counted->set_value(loop.connections.size());
  });
  if (answer.wait_until(deadline) != std::future_status::ready) return std::nullopt;
  return answer.get();
}

}  // namespace

void HttpServer::stop(std::chrono::milliseconds grace) {
  if (!impl_) return;
  Impl& impl = *impl_;
  impl.shared->draining = true;
  asio::post(impl.loops.front()->context, [&impl] {
    error_code ignored;
    impl.acceptor->close(ignored);
    impl.retry->cancel();
  });
  const auto deadline = std::chrono::steady_clock::now() + grace;
  while (std::chrono::steady_clock::now() < deadline) {
    std::size_t open = 0;
    bool answered = true;
    for (auto& loop : impl.loops) {
      const auto count = closeIdleAndCount(*loop, deadline);
      answered = answered && count.has_value();
      open += count.value_or(0);
    }
    if (answered && open == 0) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  stop();
}

void HttpServer::stop() {
  if (!impl_) return;
  Impl& impl = *impl_;
  // FIFO on each one-thread loop: the connections close, then the loop stops.
  asio::post(impl.loops.front()->context, [&impl] {
    error_code ignored;
    impl.acceptor->close(ignored);
    impl.retry->cancel();
  });
  for (auto& loop : impl.loops) {
    EventLoop* raw = loop.get();
    asio::post(raw->context, [raw] {
      raw->closeAll();
      raw->context.stop();
    });
  }
  for (auto& loop : impl.loops) {
    if (loop->thread.joinable()) loop->thread.join();
  }
  impl.guards.clear();
  impl.pool->stop();
  impl_.reset();
}

std::size_t HttpServer::connectionCount() const { return impl_ ? impl_->limiter.total() : 0; }

}  // namespace skinpulse::http
