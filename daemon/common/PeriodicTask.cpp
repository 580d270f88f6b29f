#include "common/PeriodicTask.hpp"

#include "common/Log.hpp"

namespace skinpulse::common {

PeriodicTask::PeriodicTask(std::string name, std::chrono::milliseconds first_delay,
                           std::chrono::milliseconds period, std::function<void()> job)
    : name_(std::move(name)), first_delay_(first_delay), period_(period), job_(std::move(job)) {}

void PeriodicTask::start() {
  std::lock_guard lock(mutex_);
  if (!thread_.joinable() && !stopping_) thread_ = std::thread([this] { loop(); });
}

void PeriodicTask::stop() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

bool PeriodicTask::pause(std::chrono::milliseconds duration) {
  std::unique_lock lock(mutex_);
  return !wake_.wait_for(lock, duration, [this] { return stopping_; });
}

void PeriodicTask::loop() {
  for (auto wait = first_delay_; pause(wait); wait = period_) {
    try {
      job_();
    } catch (const std::exception& error) {
      log::main().warn("{} failed (will retry): {}", name_, error.what());
    }
  }
}

}  // namespace skinpulse::common
