#pragma once

// PeriodicTask: one background thread that runs a job after a first delay and then at a
// fixed period until stopped. stop() wakes the thread at once: a daemon shutting down
// never waits out a period. The job may call pause() between steps of long work; it
// returns false once stopping, so the job can end early.

#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

namespace skinpulse::common {

class PeriodicTask {
 public:
  /// `name` appears in the log line when a run throws (the task keeps its schedule).
  PeriodicTask(std::string name, std::chrono::milliseconds first_delay,
               std::chrono::milliseconds period, std::function<void()> job);
  PeriodicTask(const PeriodicTask&) = delete;
  PeriodicTask& operator=(const PeriodicTask&) = delete;
  ~PeriodicTask() { stop(); }

  void start();
  void stop();

  /// Sleeps up to `duration`; false when the task is being stopped.
  bool pause(std::chrono::milliseconds duration);

 private:
  void loop();

  std::string name_;
  std::chrono::milliseconds first_delay_;
  std::chrono::milliseconds period_;
  std::function<void()> job_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace skinpulse::common
