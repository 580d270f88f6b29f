#pragma once

// A Host for the paced sources' tests: answers are scripted as a queue (one per request,
// in order; the last one repeats), the clock can move by itself with every request, and
// every request is recorded. MockHost (tests/mocks) answers by URL prefix, which cannot
// tell two POSTs to one URL, or the same page asked twice, apart.

#include "mocks/Fixture.hpp"
#include "mocks/MockHost.hpp"

#include <deque>
#include <map>
#include <string>
#include <vector>

namespace paced_test {

using skinpulse::test::fixture;
namespace sdk = skinpulse::sdk;

inline sdk::HttpResponse answer(int status, std::string body, sdk::Fields headers = {}) {
  return skinpulse::test::MockHttp::ok(std::move(body), status, std::move(headers));
}

class ScriptedHost final : public sdk::Host, sdk::Logger, sdk::Clock, sdk::Config, sdk::HttpClient {
 public:
  skinpulse::test::MockCatalog catalog_items;
  std::map<std::string, std::string> settings;
  std::int64_t now_millis = 1795342500000;  // 2026-11-22T10:15:00Z
  std::int64_t millis_per_request = 0;      ///< the clock moves this much per request
  std::deque<sdk::HttpResponse> script;     ///< answered in order; the last one repeats
  std::vector<sdk::HttpRequest> requests;
  std::vector<std::pair<sdk::LogLevel, std::string>> lines;

  void then(sdk::HttpResponse response) { script.push_back(std::move(response)); }
  void addItems(const std::vector<std::string>& names) {
    for (const auto& name : names) catalog_items.add(name);
  }
  std::string allLogs() const {
    std::string out;
    for (const auto& [level, line] : lines) out += line + "\n";
    return out;
  }

  // sdk::Host
  std::string instanceName() const override { return "test"; }
  sdk::Logger& logger() override { return *this; }
  sdk::HttpClient& http() override { return *this; }
  const sdk::Clock& clock() const override { return *this; }
  const sdk::Config& config() const override { return *this; }
  const sdk::Catalog& catalog() const override { return catalog_items; }
  std::string randomToken(std::size_t bytes) override { return std::string(bytes, 'r'); }
  // sdk::HttpClient
  sdk::HttpResponse send(const sdk::HttpRequest& request) override {
    requests.push_back(request);
    now_millis += millis_per_request;
    if (script.empty()) {
      return skinpulse::test::MockHttp::failure(sdk::HttpResponse::Error::kConnect, "no script");
    }
    sdk::HttpResponse next = script.front();
    if (script.size() > 1) script.pop_front();
    return next;
  }
  // sdk::Logger
  void log(sdk::LogLevel level, std::string_view message) override {
    lines.emplace_back(level, std::string(message));
  }
  // sdk::Clock
  std::int64_t nowUnixMillis() const override { return now_millis; }
  // sdk::Config
  std::optional<std::string> get(std::string_view key) const override {
    const auto it = settings.find(std::string(key));
    if (it == settings.end()) return std::nullopt;
    return it->second;
  }
  std::vector<std::string> keys() const override {
    std::vector<std::string> out;
    for (const auto& [key, value] : settings) out.push_back(key);
    return out;
  }
};

}  // namespace paced_test
