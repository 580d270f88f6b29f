#pragma once

// A one-connection-at-a-time HTTP peer on 127.0.0.1 for the Sender tests, on plain POSIX
// sockets (nothing of the code under test): it reads a request head and body, then
// writes `answer` at `gap` between pieces of `piece` bytes — all at once for a healthy
// target, a byte at a time for a dripping one. It stops dripping after `give_up`, so a
// Sender without a total deadline makes the test slow and failing, never hung.

#include <arpa/inet.h>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <netinet/in.h>
#include <string>
#include <sys/socket.h>
#include <thread>
#include <unistd.h>

namespace skinpulse::test {

class TinyHttpServer {
 public:
  TinyHttpServer(std::string answer, std::size_t piece, std::chrono::milliseconds gap,
                 std::chrono::milliseconds give_up = std::chrono::seconds(8))
      : answer_(std::move(answer)), piece_(piece), gap_(gap), give_up_(give_up) {
    listener_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    const int one = 1;
    ::setsockopt(listener_, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ::bind(listener_, reinterpret_cast<sockaddr*>(&address), sizeof address);
    ::listen(listener_, 8);
    socklen_t length = sizeof address;
    ::getsockname(listener_, reinterpret_cast<sockaddr*>(&address), &length);
    port_ = ntohs(address.sin_port);
    thread_ = std::thread([this] { serve(); });
  }

  ~TinyHttpServer() {
    stopping_ = true;
    ::shutdown(listener_, SHUT_RDWR);
    thread_.join();
    ::close(listener_);
  }

  std::uint16_t port() const { return port_; }
  std::string url() const { return "http://127.0.0.1:" + std::to_string(port_) + "/hook"; }
  /// Requests read so far.
  int requests() const { return requests_; }

 private:
  void serve() {
    while (!stopping_) {
      const int client = ::accept4(listener_, nullptr, nullptr, SOCK_CLOEXEC);
      if (client < 0) return;
      readRequest(client);
      ++requests_;
      const auto started = std::chrono::steady_clock::now();
      for (std::size_t at = 0; at < answer_.size() && !stopping_; at += piece_) {
        const auto part = answer_.substr(at, piece_);
        if (::send(client, part.data(), part.size(), MSG_NOSIGNAL) <= 0) break;
        if (std::chrono::steady_clock::now() - started > give_up_) break;
        if (gap_.count() > 0) std::this_thread::sleep_for(gap_);
      }
      ::close(client);
    }
  }

  // Up to the end of the head, then Content-Length bytes of body.
  static void readRequest(int client) {
    std::string in;
    char buffer[4096];
    std::size_t need = std::string::npos;
    while (true) {
      const auto end = in.find("\r\n\r\n");
      if (end != std::string::npos && need == std::string::npos) {
        std::size_t length = 0;
        const auto at = in.find("Content-Length: ");
        if (at != std::string::npos && at < end) length = std::stoul(in.substr(at + 16));
        need = end + 4 + length;
      }
      if (need != std::string::npos && in.size() >= need) return;
      const auto got = ::recv(client, buffer, sizeof buffer, 0);
      if (got <= 0) return;
      in.append(buffer, static_cast<std::size_t>(got));
    }
  }

  std::string answer_;
  std::size_t piece_;
  std::chrono::milliseconds gap_;
  std::chrono::milliseconds give_up_;
  int listener_ = -1;
  std::uint16_t port_ = 0;
  std::atomic<bool> stopping_{false};
  std::atomic<int> requests_{0};
  std::thread thread_;
};

}  // namespace skinpulse::test
