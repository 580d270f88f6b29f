#include "http/WorkerPool.hpp"

#include "common/Log.hpp"

#include <algorithm>

namespace skinpulse::http {

WorkerPool::WorkerPool(int threads, std::size_t max_queued) : max_queued_(max_queued) {
  for (int i = 0; i < std::max(1, threads); ++i) threads_.emplace_back([this] { run(); });
}

WorkerPool::~WorkerPool() { stop(); }

bool WorkerPool::trySubmit(Task& task) {
  {
    std::lock_guard lock(mutex_);
    if (stopping_ || tasks_.size() >= max_queued_) return false;
    tasks_.push_back(std::move(task));
  }
  wake_.notify_one();
  return true;
}

void WorkerPool::stop() {
  std::deque<Task> dropped;
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
    dropped.swap(tasks_);
  }
  wake_.notify_all();
  for (auto& thread : threads_) {
    if (thread.joinable()) thread.join();
  }
  threads_.clear();
  // `dropped` is destroyed here, outside the lock: a task may own a connection.
}

std::size_t WorkerPool::queued() const {
  std::lock_guard lock(mutex_);
  return tasks_.size();
}

void WorkerPool::run() {
  while (true) {
    Task task;
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [this] { return stopping_ || !tasks_.empty(); });
      if (stopping_) return;
      task = std::move(tasks_.front());
      tasks_.pop_front();
    }
    try {
      task();
    } catch (const std::exception& error) {
      log::main().error("http worker: {}", error.what());
    }
  }
}

}  // namespace skinpulse::http
