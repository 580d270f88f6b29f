#include "DmarketSource.hpp"

#include "skinpulse/sdk/url_encoding.hpp"

#include "SourceSupport.hpp"

#include <Poco/JSON/Array.h>
#include <Poco/JSON/Object.h>
#include <Poco/JSON/Stringifier.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <sstream>
#include <stdexcept>

namespace skinpulse::plugins::dmarket {
namespace {

using sdk::HttpResponse;
using sdk::Status;
using support::positiveKey;

constexpr std::int64_t kDefaultHoldOffSeconds = 60;  // a 429 that says nothing about when
constexpr std::int64_t kMaxHoldOffSeconds = 3600;    // docs/api.md §4: Retry-After up to 1 h
constexpr const char* kAggregatePath = "/marketplace-api/v1/aggregated-prices";
constexpr const char* kSalesPath = "/trade-aggregator/v1/last-sales";

std::string lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}

// A key from the section, else from the environment (keys kept out of INI files).
std::optional<std::string> keyOrEnv(const sdk::Config& config, std::string_view key,
                                    const char* env) {
  if (auto value = config.get(key); value && !value->empty()) return value;
  if (const char* from_env = std::getenv(env); from_env != nullptr && *from_env != '\0') {
    return std::string(from_env);
  }
  return std::nullopt;
}

std::optional<std::int64_t> headerInteger(const HttpResponse& response, std::string_view name) {
  for (const std::string prefix : {"", "X-"}) {
    const auto value = response.header(prefix + std::string(name));
    if (!value) continue;
    std::string_view text = *value;
    // "RateLimit-Remaining: 3" or a structured "3;w=1": the leading integer counts.
    std::int64_t parsed = 0;
    std::size_t i = text.find_first_not_of(' ');
    if (i == std::string_view::npos) continue;
    const std::size_t start = i;
    for (; i < text.size() && text[i] >= '0' && text[i] <= '9' && i - start < 18; ++i) {
      parsed = parsed * 10 + (text[i] - '0');
    }
    if (i == start) continue;
    return parsed;
  }
  return std::nullopt;
}

// The path and query of an absolute URL, as the server sees them (what DMarket signs).
std::string pathAndQuery(const std::string& url) {
  const std::size_t scheme = url.find("://");
  const std::size_t slash = url.find('/', scheme == std::string::npos ? 0 : scheme + 3);
  return slash == std::string::npos ? "/" : url.substr(slash);
}

sdk::PollReport failed(Status status, std::optional<std::int64_t> retry_after = std::nullopt) {
  sdk::PollReport batch;
  batch.status = std::move(status);
  batch.retry_after_seconds = retry_after;
  return batch;
}

}  // namespace

DmarketSource::DmarketSource(sdk::Host& host) : host_(host) {
  const auto& config = host.config();
  base_url_ = support::baseUrl(config, "https://api.dmarket.com");
  game_ = config.getString("game", "a8db");
  if (game_.empty() || game_.size() > 32 ||
      game_.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789") != std::string::npos) {
    throw std::invalid_argument(
        "game: a DMarket game id such as a8db (lower-case letters, digits)");
  }
  batch_size_ = static_cast<std::size_t>(positiveKey(config, "batch_size", 100, 100));
  requests_per_poll_ = static_cast<std::size_t>(positiveKey(config, "requests_per_poll", 5, 400));
  sales_per_poll_ = static_cast<std::size_t>(positiveKey(config, "sales_per_poll", 5, 100));
  max_bytes_ = static_cast<std::size_t>(positiveKey(config, "max_bytes", 1 << 20, 1 << 26));
  timeout_ = std::chrono::seconds(positiveKey(config, "request_timeout_seconds", 20, 600));
  const std::string unit = config.getString("price_unit", "cents");
  if (unit == "cents") {
    unit_ = PriceUnit::kCents;
  } else if (unit == "major") {
    unit_ = PriceUnit::kMajor;
  } else {
    throw std::invalid_argument("price_unit: cents or major, not '" + unit + "'");
  }
  const auto secret = keyOrEnv(config, "secret_key", "DMARKET_SECRET_KEY");
  const auto public_key = keyOrEnv(config, "public_key", "DMARKET_PUBLIC_KEY");
  if (secret) {
    signer_ = std::make_unique<Ed25519Signer>(*secret);
    if (public_key && lower(*public_key) != signer_->publicKeyHex()) {
      throw std::invalid_argument("public_key: is not the public key of secret_key");
    }
    public_key_ = signer_->publicKeyHex();
  } else if (public_key) {
    throw std::invalid_argument(
        "public_key: set without secret_key (DMARKET_SECRET_KEY); signed sales need both");
  }
}

DmarketSource::~DmarketSource() = default;

std::string DmarketSource::aggregateBody(const std::vector<std::string>& titles) const {
  Poco::JSON::Object::Ptr filter = new Poco::JSON::Object(Poco::JSON_PRESERVE_KEY_ORDER);
  filter->set("game", game_);
  Poco::JSON::Array::Ptr names = new Poco::JSON::Array();
  for (const auto& title : titles) names->add(title);
  filter->set("titles", names);
  Poco::JSON::Object body(Poco::JSON_PRESERVE_KEY_ORDER);
  body.set("filter", filter);
  body.set("limit", std::to_string(batch_size_));
  body.set("cursor", "");
  std::ostringstream out;
  body.stringify(out);
  return out.str();
}

sdk::Fields DmarketSource::signedHeaders(const std::string& method, const std::string& url,
                                         const std::string& body, std::int64_t date) const {
  if (!signer_) return {};
  const std::string when = std::to_string(date);
  const std::string signature = signer_->signHex(method + pathAndQuery(url) + body + when);
  return {{"X-Api-Key", public_key_},
          {"X-Sign-Date", when},
          {"X-Request-Sign", "dmar ed25519 " + signature}};
}

std::vector<DmarketSource::Target> DmarketSource::nextTitles(std::int64_t after,
                                                             std::size_t limit) const {
  std::vector<Target> titles;
  host_.catalog().forEach([&](const sdk::CatalogItem& item) {
    if (item.id > after && !item.market_hash_name.empty()) {
      titles.push_back({item.id, item.market_hash_name});
    }
    return titles.size() < limit;
  });
  return titles;
}

sdk::HttpResponse DmarketSource::send(sdk::HttpRequest request) {
  request.timeout = timeout_;
  request.max_body_bytes = max_bytes_;
  request.headers.emplace_back("Accept", "application/json");
  return host_.http().send(request);
}

void DmarketSource::holdOff(std::int64_t now_ms, std::int64_t seconds) {
  seconds = std::clamp<std::int64_t>(seconds, 1, kMaxHoldOffSeconds);
  not_before_ms_ = std::max(not_before_ms_, now_ms + seconds * 1000);
}

bool DmarketSource::windowExhausted(const HttpResponse& response, std::int64_t now_ms) {
  const auto remaining = headerInteger(response, "RateLimit-Remaining");
  if (!remaining || *remaining > 0) return false;
  std::int64_t wait = 1;
  if (const auto reset = headerInteger(response, "RateLimit-Reset")) {
    // Seconds until the window resets (IETF RateLimit fields); a few servers send the
    // unix time of the reset instead.
    wait = *reset > 1'000'000'000 ? *reset - now_ms / 1000 : *reset;
  }
  holdOff(now_ms, wait);
  return true;
}

sdk::PollReport DmarketSource::poll() {
  const std::int64_t started_ms = host_.clock().nowUnixMillis();
  if (started_ms < not_before_ms_) {
    host_.logger().debug("dmarket: rate-limit window not reset yet, " +
                         std::to_string((not_before_ms_ - started_ms + 999) / 1000) +
                         " s to wait; nothing sent");
    return {};
  }
  const std::int64_t now = started_ms / 1000;
  sdk::PollReport result;
  std::optional<sdk::PollReport> failure;
  std::string failed_part;
  std::size_t skipped = 0;
  std::size_t priced_titles = 0;
  bool stop = false;

  // A failed answer: a 429 holds the source off (Retry-After, else the window's reset,
  // else a minute); the rest become the poll's status when it gathered nothing.
  const auto refuse = [&](const HttpResponse& response, const std::string& what) {
    auto failure_of = support::failureOf(response, now, "check public_key and secret_key");
    if (!failure_of) return false;
    if (response.error == HttpResponse::Error::kNone && response.status == 429) {
      std::int64_t wait = failure_of->retry_after_seconds.value_or(
          headerInteger(response, "RateLimit-Reset").value_or(kDefaultHoldOffSeconds));
      if (wait <= 0) wait = 1;
      holdOff(host_.clock().nowUnixMillis(), wait);
      failure_of->retry_after_seconds = std::min(wait, kMaxHoldOffSeconds);
    }
    failure = failed(Status(failure_of->status.code(), what + ": " + failure_of->status.message()),
                     failure_of->retry_after_seconds);
    failed_part = what;
    stop = true;
    return true;
  };

  for (std::size_t sent = 0; sent < requests_per_poll_ && !stop; ++sent) {
    const std::vector<Target> titles = nextTitles(last_catalog_id_, batch_size_);
    if (titles.empty()) {
      last_catalog_id_ = 0;  // a pass is complete: the next poll starts again
      break;
    }
    std::vector<std::string> names;
    names.reserve(titles.size());
    for (const auto& title : titles) names.push_back(title.name);
    sdk::HttpRequest request;
    request.method = "POST";
    request.url = base_url_ + kAggregatePath;
    request.body = aggregateBody(names);
    request.headers = {{"Content-Type", "application/json"}};
    const HttpResponse response = send(std::move(request));
    if (response.error == HttpResponse::Error::kTooLarge) {
      last_catalog_id_ = titles.back().id;  // a poisoned batch must not block the pass
    }
    if (refuse(response, "aggregated-prices")) break;
    ParsedAnswer parsed = parseAggregated(response.body, unit_);
    result.rows_read += static_cast<std::int64_t>(parsed.rows);
    for (const auto& [reason, n] : parsed.reasons) support::addSkip(result.skipped, reason, n);
    if (!parsed.ok) {
      if (parsed.unit_mismatch) {
        // Storing this would be off by ×100: the whole poll fails until price_unit is fixed.
        host_.logger().error("dmarket: " + parsed.error);
        sdk::PollReport refused =
            failed(Status(Status::Code::kMalformed, "unit check: " + parsed.error));
        refused.rows_read = result.rows_read;
        refused.skipped = result.skipped;
        return refused;
      }
      last_catalog_id_ = titles.back().id;
      failure = failed(Status(Status::Code::kMalformed, "aggregated-prices: " + parsed.error));
      failed_part = "aggregated-prices";
      break;
    }
    last_catalog_id_ = titles.size() < batch_size_ ? 0 : titles.back().id;
    skipped += parsed.skipped;
    priced_titles += titles.size();
    // Bid and ask share the poll's time: the daemon stores the kind that differs from the
    // instance's under a source of its own (`dmarket-bid`), so they never collide.
    for (auto& quote : parsed.quotes) {
      quote.observed_at = now;
      result.quotes.push_back(std::move(quote));
    }
    if (windowExhausted(response, host_.clock().nowUnixMillis())) stop = true;
    if (last_catalog_id_ == 0) break;  // end of the catalogue: one pass per poll at most
  }

  if (signer_ && !stop) {
    std::vector<Target> titles = nextTitles(last_sales_id_, sales_per_poll_);
    if (titles.empty()) titles = nextTitles(0, sales_per_poll_);  // wrap around
    for (const Target& title : titles) {
      sdk::HttpRequest request;
      request.url = base_url_ + kSalesPath + "?gameId=" + sdk::percentEncode(game_) +
                    "&title=" + sdk::percentEncode(title.name) + "&limit=20";
      request.headers = signedHeaders("GET", request.url, "", host_.clock().nowUnixSeconds());
      const HttpResponse response = send(std::move(request));
      if (refuse(response, "last-sales")) break;
      last_sales_id_ = title.id;
      ParsedAnswer parsed = parseSales(response.body, title.name, unit_);
      result.rows_read += static_cast<std::int64_t>(parsed.rows);
      for (const auto& [reason, n] : parsed.reasons) support::addSkip(result.skipped, reason, n);
      if (!parsed.ok) {
        ++skipped;
        host_.logger().warn("dmarket: last-sales of one title unreadable: " + parsed.error);
        result.failed_parts.push_back(
            {"last-sales", Status(Status::Code::kMalformed, "last-sales: " + parsed.error)});
      } else {
        skipped += parsed.skipped;
        for (auto& quote : parsed.quotes) result.quotes.push_back(std::move(quote));
      }
      if (windowExhausted(response, host_.clock().nowUnixMillis())) break;
    }
  }

  if (failure) {
    host_.logger().warn("dmarket: " + failure->status.message());
    if (result.quotes.empty()) {
      failure->rows_read = result.rows_read;
      failure->skipped = std::move(result.skipped);
      failure->failed_parts = std::move(result.failed_parts);
      return std::move(*failure);
    }
    // What the earlier requests read well is kept; the failed request is named (§19).
    result.failed_parts.push_back({failed_part, failure->status});
    result.retry_after_seconds = failure->retry_after_seconds;
  }
  host_.logger().debug("dmarket: " + std::to_string(result.quotes.size()) + " quotes for " +
                       std::to_string(priced_titles) + " titles, " + std::to_string(skipped) +
                       " rows skipped; cursor at id " + std::to_string(last_catalog_id_));
  return result;
}

}  // namespace skinpulse::plugins::dmarket
