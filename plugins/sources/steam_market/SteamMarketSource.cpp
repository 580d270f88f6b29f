#include "SteamMarketSource.hpp"

#include <Poco/DateTime.h>
#include <Poco/DateTimeFormat.h>
#include <Poco/DateTimeParser.h>
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

using sdk::FetchResult;
using sdk::HttpResponse;
using sdk::Status;

std::int64_t positiveKey(const sdk::Config& config, std::string_view key, std::int64_t fallback,
                         std::int64_t maximum) {
  const auto text = config.get(key);
  if (!text) return fallback;
  std::int64_t value = 0;
  const char* end = text->data() + text->size();
  const auto [ptr, ec] = std::from_chars(text->data(), end, value);
  if (ec != std::errc() || ptr != end || value < 1 || value > maximum) {
    throw std::invalid_argument(std::string(key) + ": expected an integer between 1 and " +
                                std::to_string(maximum) + ", got \"" + *text + "\"");
  }
  return value;
}

std::string trim(std::string_view text) {
  const auto first = text.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos) return {};
  const auto last = text.find_last_not_of(" \t\r\n");
  return std::string(text.substr(first, last - first + 1));
}

std::optional<std::int64_t> retryAfter(const HttpResponse& response, std::int64_t now) {
  const auto value = response.header("Retry-After");
  if (!value) return std::nullopt;
  const std::string text = trim(*value);
  std::int64_t seconds = 0;
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, seconds);
  if (!text.empty() && ec == std::errc() && ptr == end && seconds >= 0) return seconds;
  Poco::DateTime when;
  int tzd = 0;
  if (Poco::DateTimeParser::tryParse(Poco::DateTimeFormat::HTTP_FORMAT, text, when, tzd)) {
    when.makeUTC(tzd);
    return std::max<std::int64_t>(0, when.timestamp().epochTime() - now);
  }
  return std::nullopt;
}

// The parsed body when it is a JSON object, nullptr otherwise; `error` says why.
Poco::JSON::Object::Ptr parseObject(const std::string& body, std::string& error) {
  try {
    Poco::JSON::Parser parser;
    const Poco::Dynamic::Var parsed = parser.parse(body);
    if (parsed.type() != typeid(Poco::JSON::Object::Ptr)) {
      error = "expected a JSON object";
      return nullptr;
    }
    return parsed.extract<Poco::JSON::Object::Ptr>();
  } catch (const Poco::Exception& e) {
    error = "invalid JSON: " + e.displayText();
    return nullptr;
  }
}

bool isSuccess(const Poco::JSON::Object& object) {
  if (!object.has("success") || object.isNull("success")) return false;
  const Poco::Dynamic::Var value = object.get("success");
  if (value.type() == typeid(bool)) return value.extract<bool>();
  return value.isInteger() && value.convert<std::int64_t>() == 1;
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

std::string percentEncode(std::string_view text) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  out.reserve(text.size() * 3);
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    const bool unreserved = (byte >= 'A' && byte <= 'Z') || (byte >= 'a' && byte <= 'z') ||
                            (byte >= '0' && byte <= '9') || byte == '-' || byte == '_' ||
                            byte == '.' || byte == '~';
    if (unreserved) {
      out.push_back(c);
    } else {
      out.push_back('%');
      out.push_back(kHex[byte >> 4]);
      out.push_back(kHex[byte & 0x0F]);
    }
  }
  return out;
}

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
  base_url_ = config.getString("url", "");
  if (base_url_.rfind("http://", 0) != 0 && base_url_.rfind("https://", 0) != 0) {
    throw std::invalid_argument(
        "url: must be an http:// or https:// address, e.g. https://steamcommunity.com");
  }
  while (!base_url_.empty() && base_url_.back() == '/') base_url_.pop_back();
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
  requests_per_fetch_ =
      static_cast<std::size_t>(positiveKey(config, "requests_per_minute", 20, 600));
  max_bytes_ = static_cast<std::size_t>(positiveKey(config, "max_bytes", 64 * 1024, 1 << 24));
  timeout_ = std::chrono::seconds(positiveKey(config, "request_timeout_seconds", 30, 600));
}

std::string SteamMarketSource::urlFor(std::string_view market_hash_name) const {
  return base_url_ + "/market/priceoverview/?appid=730&currency=1&market_hash_name=" +
         percentEncode(market_hash_name);
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
  // Catalogue: ids after the cursor first, then wrap around to the lowest ids.
  const auto& catalog = host_.catalog();
  const std::size_t limit = requests_per_fetch_;
  catalog.forEach([&](const sdk::CatalogItem& item) {
    if (item.id > last_catalog_id_ && !item.market_hash_name.empty()) {
      batch.push_back({item.market_hash_name, item.id});
    }
    return batch.size() < limit;
  });
  if (batch.size() < limit) {
    catalog.forEach([&](const sdk::CatalogItem& item) {
      if (item.id > last_catalog_id_ || batch.size() >= limit) return false;
      if (!item.market_hash_name.empty()) batch.push_back({item.market_hash_name, item.id});
      return batch.size() < limit;
    });
  }
  return batch;
}

void SteamMarketSource::advancePast(const Target& target) {
  if (!items_.empty()) {
    next_index_ = (static_cast<std::size_t>(target.catalog_id) + 1) % items_.size();
  } else {
    last_catalog_id_ = target.catalog_id;
  }
}

sdk::FetchResult SteamMarketSource::fetch() {
  FetchResult result;
  const std::vector<Target> batch = nextBatch();
  if (batch.empty()) {
    host_.logger().debug("steam_market: nothing to poll (empty catalogue)");
    return result;
  }
  std::vector<sdk::Observation> observations;
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
      result.retry_after_seconds = retryAfter(response, host_.clock().nowUnixSeconds());
      host_.logger().warn("steam_market: rate limited (HTTP 429)");
      return result;
    }
    std::string error;
    const Poco::JSON::Object::Ptr body = parseObject(response.body, error);
    if (response.status < 200 || response.status >= 300) {
      advancePast(target);
      // Steam answers some unknown names with an error status and {"success":false}:
      // that is about the item, not the service.
      const bool item_refused = (!body.isNull() && !isSuccess(*body)) ||
                                (response.status >= 400 && response.status < 500);
      if (item_refused) {
        ++skipped;
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
    if (!isSuccess(*body)) {
      ++skipped;
      continue;
    }
    auto price = nonEmptyString(*body, "lowest_price");
    if (!price) price = nonEmptyString(*body, "median_price");
    if (!price) {
      ++skipped;
      continue;
    }
    sdk::Observation observation;
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
  result.observations = std::move(observations);
  return result;
}

}  // namespace skinpulse::plugins::steam_market
