#pragma once

// Small helpers shared by the PocoHttpClient suites.

#include "skinpulse/sdk/host.hpp"

#include <Poco/Net/HTTPServerResponse.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <future>
#include <mutex>
#include <string>

namespace clienttest {

using Clock = std::chrono::steady_clock;

inline skinpulse::sdk::HttpRequest get(const std::string& url,
                                       std::chrono::milliseconds timeout = std::chrono::seconds(10),
                                       std::size_t max_body_bytes = 8u * 1024 * 1024) {
  skinpulse::sdk::HttpRequest request;
  request.url = url;
  request.timeout = timeout;
  request.max_body_bytes = max_body_bytes;
  return request;
}

inline std::chrono::milliseconds since(Clock::time_point start) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start);
}

/// What a server handler that streams a large body saw: how far it got, and whether a
/// write failed because the client went away.
struct StreamRecord {
  std::atomic<std::uint64_t> written{0};
  std::atomic<bool> failed{false};
  std::promise<void> done;
};

/// Writes `total` bytes in 64 KB pieces (chunked, or with a Content-Length), stopping at the
/// first failed write.
void streamBody(Poco::Net::HTTPServerResponse& response, StreamRecord& record, std::uint64_t total,
                bool chunked);

/// Holds slow handlers back until the test is done with them.
class Gate {
 public:
  void open() {
    {
      std::lock_guard lock(mutex_);
      open_ = true;
    }
    opened_.notify_all();
  }
  void waitFor(std::chrono::milliseconds most) {
    std::unique_lock lock(mutex_);
    opened_.wait_for(lock, most, [this] { return open_; });
  }

 private:
  std::mutex mutex_;
  std::condition_variable opened_;
  bool open_ = false;
};

/// Opens a Gate when destroyed: declared after the server, it lets the server's handlers
/// finish before the server waits for them, whether the test passes or fails.
struct OpenOnExit {
  Gate& gate;
  ~OpenOnExit() { gate.open(); }
};

/// A port nothing listens on: bound, then closed.
std::uint16_t closedPort();

}  // namespace clienttest
