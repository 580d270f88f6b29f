// bench_ws_client: holds CLIENTS WebSocket connections to bench_ws_server from one
// epoll thread, each subscribed to IDS random items of 1..ITEMS (or to "*" with
// --ids 0), and records when every update frame arrives (CLOCK_MONOTONIC, as the
// server's publish lines). After the server's last cycle it reads the server's output
// (--publish-log) and prints, per cycle and client, the latency from publish to the
// client's first and last frame of that cycle, p50/p99/max, and the entries received
// against those expected.
//
//   bench_ws_client --port P --publish-log FILE [--clients 10000] [--ids 10]
//                   [--items 25000] [--cycles 5] [--volatility 1] [--rcvbuf 524288]
//                   [--ready-file FILE]
// --ready-file: created once every client is subscribed (bench/e2e's fake market starts
// logging its cycles then).

#include <algorithm>
#include <arpa/inet.h>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <map>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <random>
#include <sstream>
#include <string>
#include <string_view>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

long long nowNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now().time_since_epoch())
      .count();
}

struct Options {
  int port = 0;
  std::string publish_log;
  int clients = 10000;
  int ids = 10;
  int items = 25000;
  int cycles = 5;
  bool volatility = true;
  int max_in_flight = 200;
  /// SO_RCVBUF of each connection (Linux doubles it; 0: autotuning). Autotuning lets a
  /// "*" client's buffer grow to tcp_rmem's maximum (32 MiB here): 500 of them pushed the
  /// whole box into TCP out-of-memory, where every loopback connection loses segments. A
  /// real browser's buffer is on its own machine.
  int rcvbuf = 512 * 1024;
  std::string ready_file;
};

struct Frame {
  long long received_ns;
  int cycle;  ///< index in cycleNames(): the "time" (prices) or "computed_at" (volatility)
  int entries;
};

// The cycles seen, by the time stamp their entries carry: a frame stores an index, so
// recording 20,000 frames a cycle allocates nothing per frame.
std::vector<std::string>& cycleNames() {
  static std::vector<std::string> names;
  return names;
}

int cycleIndex(std::string_view name) {
  auto& names = cycleNames();
  for (std::size_t i = names.size(); i-- > 0;) {
    if (names[i] == name) return static_cast<int>(i);
  }
  names.emplace_back(name);
  return static_cast<int>(names.size() - 1);
}

struct Client {
  int fd = -1;
  enum class State { kConnecting, kHandshake, kOpen, kClosed } state = State::kConnecting;
  std::string in;
  std::string out;
  std::vector<Frame> frames;
  int expected_per_cycle = 0;  ///< entries per cycle (prices + volatility)
};

std::string maskedText(const std::string& payload) {
  std::string frame;
  frame.push_back(static_cast<char>(0x81));
  if (payload.size() < 126) {
    frame.push_back(static_cast<char>(0x80 | payload.size()));
  } else {
    frame.push_back(static_cast<char>(0x80 | 126));
    frame.push_back(static_cast<char>(payload.size() >> 8));
    frame.push_back(static_cast<char>(payload.size() & 0xFF));
  }
  const char key[4] = {0x11, 0x22, 0x33, 0x44};
  frame.append(key, 4);
  for (std::size_t i = 0; i < payload.size(); ++i) frame.push_back(payload[i] ^ key[i % 4]);
  return frame;
}

std::string_view between(std::string_view text, std::string_view marker) {
  const auto at = text.find(marker);
  if (at == std::string_view::npos) return "";
  const auto start = at + marker.size();
  return text.substr(start, text.find('"', start) - start);
}

int countOf(std::string_view text, std::string_view needle) {
  int count = 0;
  for (auto at = text.find(needle); at != std::string_view::npos; at = text.find(needle, at + 1)) {
    ++count;
  }
  return count;
}

// Parses the complete server frames at the front of `in`; returns the bytes consumed.
std::size_t readFrames(Client& client, std::string_view in, long long now) {
  std::size_t at = 0;
  for (;;) {
    if (in.size() - at < 2) break;
    const auto first = static_cast<unsigned char>(in[at]);
    std::uint64_t length = static_cast<unsigned char>(in[at + 1]) & 0x7F;
    std::size_t header = 2;
    if (length == 126) {
      if (in.size() - at < 4) break;
      length =
          (static_cast<unsigned char>(in[at + 2]) << 8) | static_cast<unsigned char>(in[at + 3]);
      header = 4;
    } else if (length == 127) {
      if (in.size() - at < 10) break;
      length = 0;
      for (int i = 2; i < 10; ++i) length = (length << 8) | static_cast<unsigned char>(in[at + i]);
      header = 10;
    }
    if (in.size() - at < header + length) break;
    const std::string_view payload(in.data() + at + header, length);
    at += header + length;
    const int opcode = first & 0x0F;
    if (opcode == 0x9) {  // server ping: answer with a masked pong
      std::string pong = maskedText(std::string(payload));
      pong[0] = static_cast<char>(0x8A);
      client.out += pong;
    } else if (opcode == 0x8) {
      client.state = Client::State::kClosed;
      std::fprintf(stderr, "client closed by the server, code %d\n",
                   payload.size() >= 2 ? (static_cast<unsigned char>(payload[0]) << 8 |
                                          static_cast<unsigned char>(payload[1]))
                                       : 0);
    } else if (opcode == 0x1) {
      if (payload.substr(0, 17) == R"({"type":"prices",)") {
        client.frames.push_back(Frame{now, cycleIndex(between(payload, R"("time":")")),
                                      countOf(payload, R"("item_id":)")});
      } else if (payload.substr(0, 21) == R"({"type":"volatility",)") {
        client.frames.push_back(Frame{now, cycleIndex(between(payload, R"("computed_at":")")),
                                      countOf(payload, R"("item_id":)")});
      }
    }
  }
  return at;
}

double percentile(std::vector<double>& values, double p) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  const auto index = static_cast<std::size_t>(p * static_cast<double>(values.size() - 1) + 0.5);
  return values[std::min(index, values.size() - 1)];
}

}  // namespace

int main(int argc, char** argv) {
  Options options;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string arg = argv[i];
    const std::string value = argv[i + 1];
    if (arg == "--port")
      options.port = std::stoi(value);
    else if (arg == "--publish-log")
      options.publish_log = value;
    else if (arg == "--clients")
      options.clients = std::stoi(value);
    else if (arg == "--ids")
      options.ids = std::stoi(value);
    else if (arg == "--items")
      options.items = std::stoi(value);
    else if (arg == "--cycles")
      options.cycles = std::stoi(value);
    else if (arg == "--volatility")
      options.volatility = value != "0";
    else if (arg == "--rcvbuf")
      options.rcvbuf = std::stoi(value);
    else if (arg == "--ready-file")
      options.ready_file = value;
    else {
      std::fprintf(stderr, "unknown option %s\n", arg.c_str());
      return 2;
    }
  }
  // One descriptor per connection: lift the soft limit to the hard one.
  rlimit limit{};
  getrlimit(RLIMIT_NOFILE, &limit);
  limit.rlim_cur = limit.rlim_max;
  setrlimit(RLIMIT_NOFILE, &limit);
  if (limit.rlim_cur < static_cast<rlim_t>(options.clients + 64)) {
    std::fprintf(stderr, "open-file limit %llu is too low for %d clients (ulimit -Hn)\n",
                 static_cast<unsigned long long>(limit.rlim_cur), options.clients);
    return 1;
  }

  std::vector<Client> clients(static_cast<std::size_t>(options.clients));
  std::mt19937 random(7);
  const int epoll_fd = epoll_create1(0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<std::uint16_t>(options.port));
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  const std::string handshake =
      "GET /api/v1/ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
      "Connection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
      "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n";

  auto subscription = [&](Client& client) {
    std::string items;
    if (options.ids == 0) {
      items = "\"*\"";
      client.expected_per_cycle = options.items * (options.volatility ? 2 : 1);
    } else {
      std::vector<int> ids;
      while (static_cast<int>(ids.size()) < options.ids) {
        const int id = 1 + static_cast<int>(random() % static_cast<unsigned>(options.items));
        if (std::find(ids.begin(), ids.end(), id) == ids.end()) ids.push_back(id);
      }
      for (const int id : ids) items += (items.empty() ? "[" : ",") + std::to_string(id);
      items += "]";
      client.expected_per_cycle = options.ids * (options.volatility ? 2 : 1);
    }
    return maskedText(R"({"type":"subscribe","items":)" + items + "}");
  };

  auto flushOut = [&](Client& client) {
    while (!client.out.empty()) {
      const ssize_t n = send(client.fd, client.out.data(), client.out.size(), MSG_NOSIGNAL);
      if (n <= 0) return;
      client.out.erase(0, static_cast<std::size_t>(n));
    }
  };

  int next = 0;
  int in_flight = 0;
  int open = 0;
  auto startConnections = [&] {
    while (next < options.clients && in_flight < options.max_in_flight) {
      Client& client = clients[static_cast<std::size_t>(next)];
      client.fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
      const int one = 1;
      setsockopt(client.fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
      if (options.rcvbuf > 0) {  // before connect(): the window scale is agreed then
        setsockopt(client.fd, SOL_SOCKET, SO_RCVBUF, &options.rcvbuf, sizeof options.rcvbuf);
      }
      connect(client.fd, reinterpret_cast<sockaddr*>(&address), sizeof address);
      epoll_event event{};
      event.events = EPOLLIN | EPOLLOUT;
      event.data.u32 = static_cast<std::uint32_t>(next);
      epoll_ctl(epoll_fd, EPOLL_CTL_ADD, client.fd, &event);
      ++next;
      ++in_flight;
    }
  };

  std::ifstream publish_log;
  std::map<std::string, long long> published;  // cycle time → steady ns before publishing
  const auto connect_started = Clock::now();
  auto last_publish_seen = Clock::time_point{};
  std::vector<epoll_event> events(1024);
  std::vector<char> buffer(1 << 20);
  startConnections();
  for (;;) {
    const int ready = epoll_wait(epoll_fd, events.data(), static_cast<int>(events.size()), 100);
    for (int i = 0; i < ready; ++i) {
      Client& client = clients[events[i].data.u32];
      if (client.state == Client::State::kConnecting && (events[i].events & EPOLLOUT) != 0) {
        client.out = handshake;
        client.state = Client::State::kHandshake;
        epoll_event event{};
        event.events = EPOLLIN;
        event.data.u32 = events[i].data.u32;
        epoll_ctl(epoll_fd, EPOLL_CTL_MOD, client.fd, &event);
        flushOut(client);
      }
      if ((events[i].events & (EPOLLIN | EPOLLHUP | EPOLLERR)) == 0) continue;
      const bool open_before = client.state == Client::State::kOpen;
      for (;;) {
        const ssize_t n = recv(client.fd, buffer.data(), buffer.size(), MSG_DONTWAIT);
        if (n <= 0) {
          if (n == 0 || (errno != EAGAIN && errno != EWOULDBLOCK)) {
            if (client.state != Client::State::kClosed) {
              if (client.state != Client::State::kOpen) --in_flight;
              client.state = Client::State::kClosed;
              epoll_ctl(epoll_fd, EPOLL_CTL_DEL, client.fd, nullptr);
            }
          }
          break;
        }
        const std::string_view got(buffer.data(), static_cast<std::size_t>(n));
        if (open_before && client.in.empty()) {
          // Usual case: whole frames, parsed in place; only a partial one is kept.
          const auto used = readFrames(client, got, nowNs());  // stamped when read
          client.in.append(got.substr(used));
        } else {
          client.in.append(got);
        }
        if (static_cast<std::size_t>(n) < buffer.size()) break;  // drained
      }
      if (client.state == Client::State::kHandshake) {
        const auto end = client.in.find("\r\n\r\n");
        if (end == std::string::npos) continue;
        if (client.in.compare(0, 12, "HTTP/1.1 101") != 0) {
          std::fprintf(stderr, "handshake refused: %s\n", client.in.substr(0, 40).c_str());
          return 1;
        }
        client.in.erase(0, end + 4);
        client.state = Client::State::kOpen;
        client.out = subscription(client);
        flushOut(client);
        --in_flight;
        ++open;
        if (open == options.clients && !options.ready_file.empty()) {
          std::ofstream(options.ready_file) << open << '\n';
        }
        startConnections();
      }
      if (client.state == Client::State::kOpen && !client.in.empty()) {
        client.in.erase(0, readFrames(client, client.in, nowNs()));
      }
      if (client.state == Client::State::kOpen) flushOut(client);
    }
    startConnections();
    // Follow the server's publish lines; stop a few seconds after the last cycle.
    if (!publish_log.is_open()) publish_log.open(options.publish_log);
    if (publish_log.is_open()) {
      std::string line;
      for (;;) {
        const auto position = publish_log.tellg();
        if (!std::getline(publish_log, line)) break;
        if (publish_log.eof()) {  // a line still being written: read it again later
          publish_log.clear();
          publish_log.seekg(position);
          break;
        }
        std::istringstream fields(line);
        std::string word, cycle;
        long long before = 0;
        if (fields >> word >> cycle >> before && word == "publish") {
          published[cycle] = before;
          last_publish_seen = Clock::now();
        }
      }
      publish_log.clear();
    }
    if (static_cast<int>(published.size()) >= options.cycles &&
        Clock::now() - last_publish_seen > std::chrono::seconds(8)) {
      break;
    }
    if (Clock::now() - connect_started > std::chrono::minutes(5)) {
      std::fprintf(stderr, "timed out\n");
      break;
    }
  }

  // Per (client, cycle): first and last frame after the publish.
  std::vector<double> first_ms, last_ms;
  long long entries = 0, expected = 0;
  int closed = 0;
  for (const auto& client : clients) {
    if (client.state == Client::State::kClosed) ++closed;
    std::map<int, std::pair<long long, long long>> by_cycle;
    for (const auto& frame : client.frames) {
      entries += frame.entries;
      auto found = by_cycle.find(frame.cycle);
      if (found == by_cycle.end()) {
        by_cycle[frame.cycle] = {frame.received_ns, frame.received_ns};
      } else {
        found->second.second = frame.received_ns;
      }
    }
    for (const auto& [cycle, times] : by_cycle) {
      const auto at = published.find(cycleNames()[static_cast<std::size_t>(cycle)]);
      if (at == published.end()) continue;
      first_ms.push_back(static_cast<double>(times.first - at->second) / 1e6);
      last_ms.push_back(static_cast<double>(times.second - at->second) / 1e6);
    }
    expected += static_cast<long long>(client.expected_per_cycle) *
                static_cast<long long>(published.size());
  }
  const auto samples = last_ms.size();
  std::printf("clients=%d open=%d closed=%d cycles=%zu\n", options.clients, open, closed,
              published.size());
  std::printf("entries received=%lld expected=%lld\n", entries, expected);
  const double first_p50 = percentile(first_ms, 0.5), first_p99 = percentile(first_ms, 0.99);
  const double last_p50 = percentile(last_ms, 0.5), last_p99 = percentile(last_ms, 0.99);
  std::printf("first frame ms: p50=%.1f p99=%.1f max=%.1f\n", first_p50, first_p99,
              first_ms.empty() ? 0.0 : first_ms.back());
  std::printf("last frame ms: p50=%.1f p99=%.1f max=%.1f (n=%zu)\n", last_p50, last_p99,
              last_ms.empty() ? 0.0 : last_ms.back(), samples);
  // A stall shows as (client, cycle) pairs that came more than a second late or not at
  // all; with the server's "passes" and the kernel TCP counters of run.sh it can be
  // told apart from a slow reactor or lost segments.
  const auto late =
      std::count_if(last_ms.begin(), last_ms.end(), [](double ms) { return ms > 1000; });
  std::size_t receivers = 0;
  for (const auto& client : clients) receivers += client.expected_per_cycle > 0 ? 1 : 0;
  std::printf("late pairs (>1 s): %ld; missing pairs: %zu\n", static_cast<long>(late),
              receivers * published.size() - samples);
  return 0;
}
