#pragma once

// Fakes and helpers shared by the plugin unit tests: an HTTP client that records requests,
// an empty catalogue, a fixed clock, and a capture of what a spdlog logger writes.

#include "skinpulse/sdk/host.hpp"

#include <cppunit/extensions/HelperMacros.h>
#include <spdlog/sinks/ostream_sink.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <mutex>
#include <sstream>
#include <string>
#include <vector>

#define SKINPULSE_ASSERT_CONTAINS(text, needle)                                               \
  CPPUNIT_ASSERT_MESSAGE("expected \"" + std::string(needle) + "\" in: " + std::string(text), \
                         std::string(text).find(needle) != std::string::npos)

#define SKINPULSE_ASSERT_NOT_CONTAINS(text, needle)                                             \
  CPPUNIT_ASSERT_MESSAGE("unexpected \"" + std::string(needle) + "\" in: " + std::string(text), \
                         std::string(text).find(needle) == std::string::npos)

namespace skinpulse::test {

class FakeHttpClient final : public sdk::HttpClient {
 public:
  sdk::HttpResponse send(const sdk::HttpRequest& request) override {
    std::lock_guard lock(mutex_);
    requests_.push_back(request);
    sdk::HttpResponse response;
    response.status = status_;
    response.body = "[]";
    return response;
  }

  void setStatus(int status) {
    std::lock_guard lock(mutex_);
    status_ = status;
  }
  std::vector<sdk::HttpRequest> requests() const {
    std::lock_guard lock(mutex_);
    return requests_;
  }

 private:
  mutable std::mutex mutex_;
  std::vector<sdk::HttpRequest> requests_;
  int status_ = 200;
};

class FakeCatalog final : public sdk::Catalog {
 public:
  std::optional<sdk::CatalogItem> findByName(std::string_view) const override {
    return std::nullopt;
  }
  std::optional<sdk::CatalogItem> findById(std::int64_t) const override { return std::nullopt; }
  std::size_t size() const override { return 0; }
  void forEach(const std::function<bool(const sdk::CatalogItem&)>&) const override {}
};

class FixedClock final : public sdk::Clock {
 public:
  explicit FixedClock(std::int64_t millis) : millis_(millis) {}
  std::int64_t nowUnixMillis() const override { return millis_; }

 private:
  std::int64_t millis_;
};

/// Adds a sink to `logger` for its lifetime; lines are formatted "<level>|<message>".
class LogCapture {
 public:
  explicit LogCapture(spdlog::logger& logger)
      : logger_(logger), sink_(std::make_shared<spdlog::sinks::ostream_sink_mt>(stream_)) {
    sink_->set_pattern("%l|%v");
    logger_.sinks().push_back(sink_);
  }
  ~LogCapture() {
    auto& sinks = logger_.sinks();
    sinks.erase(std::remove(sinks.begin(), sinks.end(), sink_), sinks.end());
  }
  LogCapture(const LogCapture&) = delete;
  LogCapture& operator=(const LogCapture&) = delete;

  std::string text() const {
    logger_.flush();
    return stream_.str();
  }
  /// Lines that contain `needle`.
  int countLines(const std::string& needle) const {
    std::istringstream lines(text());
    int count = 0;
    for (std::string line; std::getline(lines, line);) {
      if (line.find(needle) != std::string::npos) ++count;
    }
    return count;
  }

 private:
  spdlog::logger& logger_;
  std::ostringstream stream_;
  std::shared_ptr<spdlog::sinks::ostream_sink_mt> sink_;
};

}  // namespace skinpulse::test
