#include "SteamMarketSource.hpp"

#include "skinpulse/sdk/url_encoding.hpp"

#include "JsonNumbers.hpp"
#include "SourceSupport.hpp"
#include "SteamSearchPage.hpp"

#include <Poco/Dynamic/Var.h>
#include <Poco/Exception.h>
#include <Poco/JSON/Object.h>
#include <Poco/JSON/Parser.h>

#include <algorithm>
#include <charconv>
#include <limits>
#include <stdexcept>

namespace skinpulse::plugins::steam_market {
namespace {

using sdk::HttpResponse;
using sdk::Status;
using support::positiveKey;

std::string trim(std::string_view text) {
  const auto first = text.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos) return {};
  const auto last = text.find_last_not_of(" \t\r\n");
  return std::string(text.substr(first, last - first + 1));
}

bool isSuccess(const Poco::JSON::Object& object) {
  if (!object.has("success") || object.isNull("success")) return false;
  const Poco::Dynamic::Var value = object.get("success");
  if (value.type() == typeid(bool)) return value.extract<bool>();
  return support::jsonInteger(value) == 1;
}

std::optional<std::string> nonEmptyString(const Poco::JSON::Object& object,
                                          const std::string& key) {
  if (!object.has(key) || object.isNull(key)) return std::nullopt;
  const Poco::Dynamic::Var value = object.get(key);
  if (!value.isString()) return std::nullopt;
  std::string text = trim(value.extract<std::string>());
  if (text.empty()) return std::nullopt;
  return text;
}

}  // namespace

std::optional<std::int64_t> parseVolume(std::string_view text) {
  std::int64_t value = 0;
  bool digits = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c >= '0' && c <= '9') {
      if (value > (std::numeric_limits<std::int64_t>::max() - (c - '0')) / 10) return std::nullopt;
      value = value * 10 + (c - '0');
      digits = true;
    } else if (c == ',' || c == '.' || c == ' ') {
      continue;
    } else if (c == '\xC2' && i + 1 < text.size() && text[i + 1] == '\xA0') {
      ++i;  // U+00A0 NO-BREAK SPACE
    } else {
      return std::nullopt;
    }
  }
  if (!digits) return std::nullopt;
  return value;
}

SteamMarketSource::SteamMarketSource(sdk::Host& host) : host_(host) {
  const auto& config = host.config();
  base_url_ = support::baseUrl(config, "https://steamcommunity.com");
  if (const auto items = config.get("items")) {
    std::size_t start = 0;
    while (start <= items->size()) {
      const std::size_t comma = std::min(items->find(',', start), items->size());
      std::string name = trim(std::string_view(*items).substr(start, comma - start));
      if (!name.empty()) items_.push_back(std::move(name));
      start = comma + 1;
    }
    if (items_.empty()) {
      throw std::invalid_argument(
          "items: no market_hash_name given (remove the key to rotate "
          "over the catalogue)");
    }
  }
  const std::string mode = config.getString("mode", "priceoverview");
  if (mode == "search") {
    search_mode_ = true;
    if (!items_.empty()) {
      throw std::invalid_argument("items: not used with mode = search (it walks every item)");
    }
  } else if (mode != "priceoverview") {
    throw std::invalid_argument("mode: priceoverview or search, not '" + mode + "'");
  }
  page_size_ = positiveKey(config, "page_size", 10, 100);
  throttle_seconds_ = positiveKey(config, "throttle_seconds", 60, 3600);
  requests_per_fetch_ =
      static_cast<std::size_t>(positiveKey(config, "requests_per_minute", 20, 600));
  max_bytes_ = static_cast<std::size_t>(
      positiveKey(config, "max_bytes", search_mode_ ? 1 << 20 : 64 * 1024, 1 << 24));
  timeout_ = std::chrono::seconds(positiveKey(config, "request_timeout_seconds", 30, 600));
}

std::string SteamMarketSource::urlFor(std::string_view market_hash_name) const {
  return base_url_ + "/market/priceoverview/?appid=730&currency=1&market_hash_name=" +
         sdk::percentEncode(market_hash_name);
}

std::vector<SteamMarketSource::Target> SteamMarketSource::nextBatch() const {
  std::vector<Target> batch;
  if (!items_.empty()) {
    const std::size_t count = std::min(requests_per_fetch_, items_.size());
    for (std::size_t k = 0; k < count; ++k) {
      const std::size_t index = (next_index_ + k) % items_.size();
      batch.push_back({items_[index], static_cast<std::int64_t>(index)});
    }
    return batch;
  }
  // Items someone holds first (docs/api.md §1.2): ids after the held cursor, then wrap.
  const auto& catalog = host_.catalog();
  const std::size_t limit = requests_per_fetch_;
  const std::vector<std::int64_t> held = catalog.heldItemIds();
  const auto firstAfter = std::upper_bound(held.begin(), held.end(), last_held_id_);
  std::vector<std::int64_t> heldOrder(firstAfter, held.end());
  heldOrder.insert(heldOrder.end(), held.begin(), firstAfter);
  for (const std::int64_t id : heldOrder) {
    if (batch.size() >= limit) break;
    const auto item = catalog.findById(id);
    if (item && !item->market_hash_name.empty()) {
      batch.push_back({item->market_hash_name, item->id, true});
    }
  }
  // Then the catalogue with what is left: ids after the cursor first, then wrap around to
  // the lowest ids, skipping what was just taken as held.
  const auto isHeld = [&](std::int64_t id) {
    return std::binary_search(held.begin(), held.end(), id);
  };
  const auto take = [&](const sdk::CatalogItem& item) {
    if (!item.market_hash_name.empty() && !isHeld(item.id)) {
      batch.push_back({item.market_hash_name, item.id, false});
    }
  };
  if (batch.size() < limit) {
    catalog.forEach([&](const sdk::CatalogItem& item) {
      if (item.id > last_catalog_id_) take(item);
      return batch.size() < limit;
    });
  }
  if (batch.size() < limit) {
    catalog.forEach([&](const sdk::CatalogItem& item) {
      if (item.id > last_catalog_id_ || batch.size() >= limit) return false;
      take(item);
      return batch.size() < limit;
    });
  }
  return batch;
}

void SteamMarketSource::advancePast(const Target& target) {
  if (!items_.empty()) {
    next_index_ = (static_cast<std::size_t>(target.catalog_id) + 1) % items_.size();
  } else if (target.held) {
    last_held_id_ = target.catalog_id;
  } else {
    last_catalog_id_ = target.catalog_id;
  }
}

std::string SteamMarketSource::searchUrl(std::int64_t start) const {
  return base_url_ +
         "/market/search/render/?appid=730&norender=1&currency=1&start=" + std::to_string(start) +
         "&count=" + std::to_string(page_size_) + "&sort_column=name&sort_dir=asc";
}

sdk::PollReport SteamMarketSource::poll() {
  return search_mode_ ? fetchSearch() : fetchPriceOverview();
}

sdk::PollReport SteamMarketSource::fetchSearch() {
  // ByMykel's crawler's back-off for an empty page (docs/upstreams.md §a.2): 60 s (the
  // default throttle_seconds), doubling, here capped at an hour (the longest wait
  // docs/api.md §4 honours).
  constexpr std::int64_t kThrottleMaxSeconds = 3600;
  sdk::PollReport result;
  const std::int64_t started_ms = host_.clock().nowUnixMillis();
  if (started_ms < not_before_ms_) {
    host_.logger().debug("steam_market: throttled, holding off " +
                         std::to_string((not_before_ms_ - started_ms + 999) / 1000) + " s more");
    return result;
  }
  std::optional<Status> failure;
  std::optional<std::int64_t> retry_after;
  std::size_t skipped = 0;
  std::size_t pages = 0;
  std::string failed_part;
  const auto throttled = [&](std::optional<std::int64_t> seconds, const std::string& why) {
    ++throttled_in_a_row_;
    const std::int64_t backoff = throttle_seconds_
                                 << std::min(throttled_in_a_row_ - 1, 6);  // 60 s … 64 min
    const std::int64_t wait =
        std::clamp<std::int64_t>(seconds.value_or(backoff), 1, kThrottleMaxSeconds);
    not_before_ms_ = host_.clock().nowUnixMillis() + wait * 1000;
    failure =
        Status(Status::Code::kRateLimited, why + " at start=" + std::to_string(search_start_));
    retry_after = wait;
    host_.logger().warn("steam_market: " + why + "; holding off " + std::to_string(wait) + " s");
  };
  for (std::size_t sent = 0; sent < requests_per_fetch_; ++sent) {
    sdk::HttpRequest request;
    request.url = searchUrl(search_start_);
    request.headers = {{"Accept", "application/json"}};
    request.timeout = timeout_;
    request.max_body_bytes = max_bytes_;
    const HttpResponse response = host_.http().send(request);
    failed_part = "page at start=" + std::to_string(search_start_);
    if (response.error == HttpResponse::Error::kNone && response.status == 429) {
      std::optional<std::int64_t> seconds;
      if (const auto after = response.header("Retry-After")) {
        seconds = support::retryAfterSeconds(*after, host_.clock().nowUnixSeconds());
      }
      throttled(seconds, "HTTP 429");
      break;
    }
    if (auto refused = support::failureOf(response, host_.clock().nowUnixSeconds())) {
      // A page over the cap cannot block the walk; the network or a 5xx leaves the
      // offset where it is (the budget refusing a request shows up here as a timeout).
      if (response.error == HttpResponse::Error::kTooLarge) search_start_ += page_size_;
      failure = refused->status;
      break;
    }
    ++pages;
    const SearchPage page = parseSearchPage(response.body);
    if (!page.ok) {
      search_start_ += page_size_;
      failure = Status(Status::Code::kMalformed,
                       page.error + " at start=" + std::to_string(search_start_ - page_size_));
      break;
    }
    if (page.results == 0) {
      // Empty: the end of the list when total_count says so, else throttling.
      if (page.total_count > 0 && search_start_ >= page.total_count) {
        search_start_ = 0;
        break;
      }
      throttled(std::nullopt, "empty page before the end (total_count " +
                                  std::to_string(std::max<std::int64_t>(page.total_count, 0)) +
                                  ")");
      break;
    }
    throttled_in_a_row_ = 0;
    if (page.total_count > 0) search_total_ = page.total_count;
    skipped += page.skipped;
    result.rows_read += static_cast<std::int64_t>(page.results);
    support::addSkip(result.skipped, "bad_row", static_cast<std::int64_t>(page.skipped));
    for (auto& quote : page.quotes) {
      sdk::VariantQuote row;
      static_cast<sdk::MarketQuote&>(row) = std::move(quote);
      result.quotes.push_back(std::move(row));
    }
    search_start_ += static_cast<std::int64_t>(page.results);
    if (search_total_ > 0 && search_start_ >= search_total_) {
      search_start_ = 0;  // a pass is complete; the next poll starts again
      break;
    }
  }
  if (failure) {
    if (result.quotes.empty()) {
      result.status = *failure;
      result.retry_after_seconds = retry_after;
      return result;
    }
    host_.logger().warn("steam_market: " + failure->message() + "; keeping " +
                        std::to_string(result.quotes.size()) + " prices of this poll");
    result.failed_parts.push_back({failed_part, *failure});
  }
  host_.logger().debug("steam_market: " + std::to_string(result.quotes.size()) + " prices from " +
                       std::to_string(pages) + " search pages, " + std::to_string(skipped) +
                       " rows skipped; next start=" + std::to_string(search_start_));
  return result;
}

sdk::PollReport SteamMarketSource::fetchPriceOverview() {
  sdk::PollReport result;
  const std::vector<Target> batch = nextBatch();
  if (batch.empty()) {
    host_.logger().debug("steam_market: nothing to poll (empty catalogue)");
    return result;
  }
  std::vector<sdk::VariantQuote> observations;
  std::size_t skipped = 0;
  for (const Target& target : batch) {
    sdk::HttpRequest request;
    request.url = urlFor(target.name);
    request.headers = {{"Accept", "application/json"}};
    request.timeout = timeout_;
    request.max_body_bytes = max_bytes_;
    const HttpResponse response = host_.http().send(request);

    if (response.error == HttpResponse::Error::kTooLarge) {
      advancePast(target);
      result.status = Status(Status::Code::kTooLarge, "response over max_bytes for " + target.name);
      return result;
    }
    if (response.error != HttpResponse::Error::kNone) {
      // The network, not the item: resume with this item next time.
      result.status =
          Status(Status::Code::kUnavailable, "request failed: " + response.error_message);
      return result;
    }
    if (response.status == 429) {
      // Steam sends no Retry-After today; honour one if it appears. The cursor stays on
      // this item, and what this poll gathered so far is dropped (see README).
      result.status =
          Status(Status::Code::kRateLimited,
                 "HTTP 429 after " + std::to_string(observations.size() + skipped) + " requests");
      if (const auto after = response.header("Retry-After")) {
        result.retry_after_seconds =
            support::retryAfterSeconds(*after, host_.clock().nowUnixSeconds());
      }
      host_.logger().warn("steam_market: rate limited (HTTP 429)");
      return result;
    }
    std::string error;
    const Poco::JSON::Object::Ptr body = support::parseJsonObject(response.body, error);
    if (response.status < 200 || response.status >= 300) {
      advancePast(target);
      // Steam answers some unknown names with an error status and {"success":false}:
      // that is about the item, not the service.
      const bool item_refused = (!body.isNull() && !isSuccess(*body)) ||
                                (response.status >= 400 && response.status < 500);
      if (item_refused) {
        ++skipped;
        ++result.rows_read;
        support::addSkip(result.skipped, "not_found", 1);
        host_.logger().debug("steam_market: HTTP " + std::to_string(response.status) + " for " +
                             target.name + ", skipped");
        continue;
      }
      result.status = Status(Status::Code::kUnavailable, "HTTP " + std::to_string(response.status));
      return result;
    }
    advancePast(target);
    if (body.isNull()) {
      result.status = Status(Status::Code::kMalformed, error + " (item " + target.name + ")");
      return result;
    }
    ++result.rows_read;
    if (!isSuccess(*body)) {
      ++skipped;
      support::addSkip(result.skipped, "not_found", 1);
      continue;
    }
    sdk::VariantQuote observation;
    auto price = nonEmptyString(*body, "lowest_price");  // the instance's kind, ask by default
    if (!price) {
      price = nonEmptyString(*body, "median_price");
      observation.kind = sdk::PriceKind::kSale;  // the median of recent sales, not a listing
    }
    if (!price) {
      ++skipped;
      support::addSkip(result.skipped, "no_price", 1);
      continue;
    }
    observation.market_hash_name = target.name;
    observation.price.form = sdk::QuotedPrice::Form::kText;
    observation.price.text = std::move(*price);
    if (const auto volume = nonEmptyString(*body, "volume")) {
      observation.volume = parseVolume(*volume).value_or(0);
    }
    observations.push_back(std::move(observation));
  }
  host_.logger().debug("steam_market: " + std::to_string(observations.size()) + " prices, " +
                       std::to_string(skipped) + " items skipped");
  result.quotes = std::move(observations);
  return result;
}

}  // namespace skinpulse::plugins::steam_market
