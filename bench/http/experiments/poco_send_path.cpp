// Investigation aid, not project code: a bare Poco 1.11 HTTPServer (96 threads, the
// daemon's server parameters and security headers) that serves one fixed body, to separate
// what Poco costs from what the daemon adds. See bench/README.md, "Findings".
//
//   g++ -O2 -std=c++20 poco_send_path.cpp -o /tmp/poco_send_path -lPocoNet -lPocoFoundation
//   /tmp/poco_send_path PORT BODY_FILE SEND SNAPSHOT
//     SEND      sendbuffer: HTTPServerResponse::sendBuffer (what the daemon does; Poco streams
//                           head + body through its 4 KiB session buffer: 6 send() calls
//                           for the 20 KB list body)
//               writev:     head rendered with HTTPResponse::write into a string, then one
//                           writev(head, body) on the connection's socket
//     SNAPSHOT  atomic: std::atomic<std::shared_ptr>::load() per request (the daemon's
//                       Catalog::snapshot()); mutex: std::mutex around a plain shared_ptr;
//                       none: copy of a plain shared_ptr
//   then e.g. wrk -t2 -c64 -d10s --latency http://127.0.0.1:PORT/
#include <Poco/Net/HTTPRequestHandler.h>
#include <Poco/Net/HTTPRequestHandlerFactory.h>
#include <Poco/Net/HTTPServer.h>
#include <Poco/Net/HTTPServerParams.h>
#include <Poco/Net/HTTPServerRequest.h>
#include <Poco/Net/HTTPServerRequestImpl.h>
#include <Poco/Net/HTTPServerResponse.h>
#include <Poco/Net/ServerSocket.h>
#include <Poco/ThreadPool.h>

#include <atomic>
#include <cerrno>
#include <fstream>
#include <iostream>
#include <memory>
#include <mutex>
#include <sstream>
#include <sys/uio.h>
#include <unistd.h>

struct Snap {
  std::string body;
};
static std::atomic<std::shared_ptr<const Snap>> g_atomic;
static std::shared_ptr<const Snap> g_plain;
static std::mutex g_mutex;
static std::string g_mode, g_snap;

static std::shared_ptr<const Snap> current() {
  if (g_snap == "atomic") return g_atomic.load();
  if (g_snap == "mutex") {
    std::lock_guard l(g_mutex);
    return g_plain;
  }
  return g_plain;  // "none": plain copy of a never-changing shared_ptr (refcount inc only)
}

class H : public Poco::Net::HTTPRequestHandler {
 public:
  void handleRequest(Poco::Net::HTTPServerRequest& in,
                     Poco::Net::HTTPServerResponse& out) override {
    auto snap = current();
    const std::string& body = snap->body;
    out.setStatus(Poco::Net::HTTPResponse::HTTP_OK);
    out.setContentType("application/json; charset=utf-8");
    out.set("X-Content-Type-Options", "nosniff");
    out.set("X-Frame-Options", "DENY");
    out.set("Referrer-Policy", "strict-origin-when-cross-origin");
    out.set("X-XSS-Protection", "1; mode=block");
    if (g_mode == "sendbuffer") {
      out.sendBuffer(body.data(), body.size());
      return;
    }
    out.setContentLength64(static_cast<Poco::Int64>(body.size()));
    std::ostringstream head;
    out.write(head);  // status line + headers + CRLF
    const std::string h = head.str();
    int fd = static_cast<Poco::Net::HTTPServerRequestImpl&>(in).socket().impl()->sockfd();
    iovec iov[2] = {{const_cast<char*>(h.data()), h.size()},
                    {const_cast<char*>(body.data()), body.size()}};
    int idx = 0;
    while (idx < 2) {
      ssize_t n = ::writev(fd, iov + idx, 2 - idx);
      if (n < 0) {
        if (errno == EINTR) continue;
        throw std::runtime_error("writev");
      }
      while (idx < 2 && static_cast<size_t>(n) >= iov[idx].iov_len) {
        n -= iov[idx].iov_len;
        ++idx;
      }
      if (idx < 2) {
        iov[idx].iov_base = static_cast<char*>(iov[idx].iov_base) + n;
        iov[idx].iov_len -= n;
      }
    }
  }
};
class F : public Poco::Net::HTTPRequestHandlerFactory {
 public:
  Poco::Net::HTTPRequestHandler* createRequestHandler(
      const Poco::Net::HTTPServerRequest&) override {
    return new H;
  }
};

int main(int argc, char** argv) {
  if (argc < 5) {
    std::cerr << "usage: exp port body mode snap\n";
    return 2;
  }
  std::ifstream f(argv[2]);
  std::stringstream ss;
  ss << f.rdbuf();
  auto s = std::make_shared<const Snap>(Snap{ss.str()});
  g_atomic.store(s);
  g_plain = s;
  g_mode = argv[3];
  g_snap = argv[4];
  Poco::Net::ServerSocket sock;
  sock.bind(Poco::Net::SocketAddress("127.0.0.1", static_cast<Poco::UInt16>(std::stoi(argv[1]))),
            true);
  sock.listen(1024);
  auto params = new Poco::Net::HTTPServerParams;
  params->setMaxThreads(96);
  params->setMaxQueued(1024);
  params->setKeepAlive(true);
  params->setKeepAliveTimeout(Poco::Timespan(5, 0));
  params->setMaxKeepAliveRequests(10000);
  params->setTimeout(Poco::Timespan(30, 0));
  Poco::ThreadPool pool(2, 96, 60, 256 * 1024);
  Poco::Net::HTTPServer server(new F, pool, sock, params);
  server.start();
  std::cerr << "ready\n";
  pause();
}
