#pragma once

// MockHost: the whole sdk::Host surface in memory, for testing plugins without the
// daemon. HTTP answers are scripted per URL prefix; every request is recorded.

#include "skinpulse/sdk/host.hpp"

#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace skinpulse::test {

class MockHttp final : public sdk::HttpClient {
 public:
  /// Answers requests whose URL starts with `url_prefix` (the longest prefix wins).
  void on(const std::string& url_prefix, sdk::HttpResponse response) {
    std::lock_guard lock(mutex_);
    routes_[url_prefix] = std::move(response);
  }
  static sdk::HttpResponse ok(std::string body, int status = 200, sdk::Fields headers = {}) {
    sdk::HttpResponse response;
    response.status = status;
    response.body = std::move(body);
    response.headers = std::move(headers);
    return response;
  }
  static sdk::HttpResponse failure(sdk::HttpResponse::Error error, std::string message) {
    sdk::HttpResponse response;
    response.error = error;
    response.error_message = std::move(message);
    return response;
  }

  sdk::HttpResponse send(const sdk::HttpRequest& request) override {
    std::lock_guard lock(mutex_);
    requests_.push_back(request);
    const sdk::HttpResponse* best = nullptr;
    std::size_t bestLength = 0;
    for (const auto& [prefix, response] : routes_) {
      if (request.url.rfind(prefix, 0) == 0 && prefix.size() >= bestLength) {
        best = &response;
        bestLength = prefix.size();
      }
    }
    if (best == nullptr) return failure(sdk::HttpResponse::Error::kConnect, "no route in mock");
    return *best;
  }

  std::vector<sdk::HttpRequest> requests() const {
    std::lock_guard lock(mutex_);
    return requests_;
  }

 private:
  mutable std::mutex mutex_;
  std::map<std::string, sdk::HttpResponse> routes_;
  std::vector<sdk::HttpRequest> requests_;
};

class MockCatalog final : public sdk::Catalog {
 public:
  void add(const std::string& name) {
    sdk::CatalogItem item;
    item.id = static_cast<std::int64_t>(items_.size()) + 1;
    item.market_hash_name = name;
    items_.push_back(item);
  }
  std::optional<sdk::CatalogItem> findByName(std::string_view name) const override {
    for (const auto& item : items_) {
      if (item.market_hash_name == name) return item;
    }
    return std::nullopt;
  }
  std::optional<sdk::CatalogItem> findById(std::int64_t id) const override {
    for (const auto& item : items_) {
      if (item.id == id) return item;
    }
    return std::nullopt;
  }
  std::size_t size() const override { return items_.size(); }
  std::vector<std::int64_t> heldItemIds() const override { return held; }
  void forEach(const std::function<bool(const sdk::CatalogItem&)>& visit) const override {
    for (const auto& item : items_) {
      if (!visit(item)) return;
    }
  }

  std::vector<std::int64_t> held;  ///< what heldItemIds() answers

 private:
  std::vector<sdk::CatalogItem> items_;
};

class MockHost final : public sdk::Host, sdk::Logger, sdk::Clock, sdk::Config {
 public:
  MockHttp http_client;
  MockCatalog catalog_items;
  std::map<std::string, std::string> settings;
  std::int64_t now_millis = 1795342500000;  // 2026-11-22T10:15:00Z
  std::vector<std::pair<sdk::LogLevel, std::string>> lines;
  /// When not empty, randomToken() hands these out in order (and the default after them).
  std::vector<std::string> random_tokens;

  // sdk::Host
  std::string instanceName() const override { return "test"; }
  sdk::Logger& logger() override { return *this; }
  sdk::HttpClient& http() override { return http_client; }
  const sdk::Clock& clock() const override { return *this; }
  const sdk::Config& config() const override { return *this; }
  const sdk::Catalog& catalog() const override { return catalog_items; }
  std::string randomToken(std::size_t bytes) override {
    if (!random_tokens.empty()) {
      std::string next = random_tokens.front();
      random_tokens.erase(random_tokens.begin());
      return next;
    }
    return std::string(bytes * 4 / 3 + 1, 'r');
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

}  // namespace skinpulse::test
