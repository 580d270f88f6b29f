#pragma once

// WorkerPool: a fixed set of threads with a bounded task queue, for the handlers that
// may block (store reads, session lookups, upstream calls; docs/adr/0010-front-door.md).
// The event loops never wait for it: trySubmit() refuses when the queue is full and the
// caller answers 503 overloaded. Thread-safe. stop() drops queued tasks (destroying
// them) and joins the threads after their current task.

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace skinpulse::http {

class WorkerPool {
 public:
  using Task = std::function<void()>;

  WorkerPool(int threads, std::size_t max_queued);
  ~WorkerPool();
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  /// Queues `task`; false (task untouched) when the queue is full or the pool stopped.
  bool trySubmit(Task& task);
  void stop();

  std::size_t queued() const;

 private:
  void run();

  const std::size_t max_queued_;
  mutable std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<Task> tasks_;
  bool stopping_ = false;
  std::vector<std::thread> threads_;
};

}  // namespace skinpulse::http
