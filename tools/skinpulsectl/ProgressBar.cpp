#include "ProgressBar.hpp"

#include <algorithm>
#include <cstdio>
#include <string>

namespace skinpulse::ctl {
namespace {

constexpr int kWidth = 30;

}  // namespace

ProgressBar::ProgressBar(std::ostream& out, std::uint64_t file_bytes)
    : out_(out),
      file_bytes_(file_bytes),
      started_(std::chrono::steady_clock::now()),
      stage_started_(started_) {}

void ProgressBar::update(const ingest::BackfillProgress& p) {
  const auto now = std::chrono::steady_clock::now();
  if (p.stage != stage_) {
    stage_ = p.stage;
    stage_started_ = now;
  }
  if (now - drawn_ < std::chrono::milliseconds(100)) return;
  drawn_ = now;
  const bool reading = p.stage == ingest::BackfillProgress::Stage::kReading;
  const double done = reading ? static_cast<double>(p.bytes) : static_cast<double>(p.written);
  const double total = reading ? static_cast<double>(file_bytes_) : static_cast<double>(p.points);
  const double fraction = total > 0 ? std::clamp(done / total, 0.0, 1.0) : 0.0;
  const double seconds = std::chrono::duration<double>(now - stage_started_).count();
  const std::size_t count = reading ? p.points : p.written;
  const double rate = seconds > 0 ? static_cast<double>(count) / seconds : 0.0;
  const int filled = static_cast<int>(fraction * kWidth);
  char line[160];
  std::snprintf(line, sizeof line, "\r%s [%s%s] %3.0f%% %zu points, %.0f points/s\033[K",
                reading ? "reading" : "writing", std::string(filled, '#').c_str(),
                std::string(kWidth - filled, '.').c_str(), fraction * 100, count, rate);
  out_ << line << std::flush;
}

void ProgressBar::done() { out_ << "\r\033[K" << std::flush; }

}  // namespace skinpulse::ctl
