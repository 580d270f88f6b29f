#pragma once

// Retention: prunes raw price points older than `[storage] retention_days` in the
// background, in small batches with pauses between them, so the write lock is never held
// long enough to stall an ingestion cycle or a request.

#include "store/PriceStore.hpp"

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <thread>

namespace skinpulse {

class Retention {
 public:
  struct Options {
    int retention_days = 30;
    std::chrono::seconds first_run{60};
    std::chrono::seconds every{3600};
    std::size_t batch = 5000;
    std::chrono::milliseconds pause{50};
  };

  Retention(PriceStore& prices, Options options) : prices_(prices), options_(options) {}
  ~Retention() { stop(); }

  void start();
  void stop();

  /// One full pass (all batches); returns how many points were deleted.
  std::size_t prune(std::int64_t now);

 private:
  void loop();
  bool waitFor(std::chrono::milliseconds duration);  // false once stopping

  PriceStore& prices_;
  Options options_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace skinpulse
