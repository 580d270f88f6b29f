#include "SkinportSource.hpp"

#include <Poco/DateTime.h>
#include <Poco/DateTimeFormat.h>
#include <Poco/DateTimeParser.h>
#include <Poco/Dynamic/Var.h>
#include <Poco/Exception.h>
#include <Poco/JSON/Array.h>
#include <Poco/JSON/Object.h>
#include <Poco/JSON/Parser.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <optional>
#include <stdexcept>
#include <string_view>

namespace skinpulse::plugins::skinport {
namespace {

using sdk::FetchResult;
using sdk::HttpResponse;
using sdk::Status;

constexpr std::int64_t kDefaultMaxBytes = 32 * 1024 * 1024;

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

std::string baseUrl(const sdk::Config& config) {
  std::string url = config.getString("url", "");
  if (url.rfind("http://", 0) != 0 && url.rfind("https://", 0) != 0) {
    throw std::invalid_argument("url: must be an http:// or https:// address, e.g. " +
                                std::string("https://api.skinport.com"));
  }
  while (!url.empty() && url.back() == '/') url.pop_back();
  return url;
}

// Retry-After is either delta-seconds or an HTTP-date (RFC 9110 §10.2.3).
std::optional<std::int64_t> retryAfter(const HttpResponse& response, std::int64_t now) {
  const auto value = response.header("Retry-After");
  if (!value) return std::nullopt;
  std::string text = *value;
  text.erase(0, text.find_first_not_of(" \t"));
  text.erase(text.find_last_not_of(" \t") + 1);
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

// Maps an HTTP failure to a Status; nullopt for a 2xx answer.
std::optional<FetchResult> failure(const HttpResponse& response, std::int64_t now) {
  FetchResult result;
  switch (response.error) {
    case HttpResponse::Error::kNone:
      break;
    case HttpResponse::Error::kTooLarge:
      result.status = Status(Status::Code::kTooLarge, "response over max_bytes");
      return result;
    default:
      result.status =
          Status(Status::Code::kUnavailable, "request failed: " + response.error_message);
      return result;
  }
  if (response.status >= 200 && response.status < 300) return std::nullopt;
  const std::string what = "HTTP " + std::to_string(response.status);
  if (response.status == 429) {
    result.status = Status(Status::Code::kRateLimited, what);
    result.retry_after_seconds = retryAfter(response, now);
  } else if (response.status >= 400 && response.status < 500) {
    result.status = Status(Status::Code::kRejected, what);
  } else {
    result.status = Status(Status::Code::kUnavailable, what);
  }
  return result;
}

std::optional<double> number(const Poco::JSON::Object& row, const std::string& key) {
  if (!row.has(key) || row.isNull(key)) return std::nullopt;
  const Poco::Dynamic::Var value = row.get(key);
  if (!value.isNumeric()) return std::nullopt;
  return value.convert<double>();
}

std::optional<std::int64_t> integer(const Poco::JSON::Object& row, const std::string& key) {
  if (!row.has(key) || row.isNull(key)) return std::nullopt;
  const Poco::Dynamic::Var value = row.get(key);
  if (!value.isInteger()) return std::nullopt;
  return value.convert<std::int64_t>();
}

}  // namespace

SkinportSource::SkinportSource(sdk::Host& host) : host_(host) {
  const auto& config = host.config();
  const std::string url = baseUrl(config);
  std::string currency = config.getString("currency", "USD");
  std::transform(currency.begin(), currency.end(), currency.begin(),
                 [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  if (currency != "USD") {
    throw std::invalid_argument(
        "currency: only USD is supported (the daemon stores USD cents and this plugin does not "
        "convert), got \"" +
        config.getString("currency", "") + "\"");
  }
  max_bytes_ = static_cast<std::size_t>(
      positiveKey(config, "max_bytes", kDefaultMaxBytes, std::int64_t{1} << 34));
  timeout_ = std::chrono::seconds(positiveKey(config, "request_timeout_seconds", 30, 600));
  request_url_ = url + "/v1/items?app_id=730&currency=" + currency;
}

sdk::FetchResult SkinportSource::fetch() {
  sdk::HttpRequest request;
  request.url = request_url_;
  request.headers = {{"Accept-Encoding", "br"}, {"Accept", "application/json"}};
  request.timeout = timeout_;
  request.max_body_bytes = max_bytes_;
  const HttpResponse response = host_.http().send(request);
  if (auto failed = failure(response, host_.clock().nowUnixSeconds())) {
    host_.logger().warn("skinport /v1/items: " + failed->status.message());
    return std::move(*failed);
  }

  FetchResult result;
  Poco::JSON::Array::Ptr rows;
  try {
    Poco::JSON::Parser parser;
    const Poco::Dynamic::Var parsed = parser.parse(response.body);
    if (parsed.type() != typeid(Poco::JSON::Array::Ptr)) {
      result.status = Status(Status::Code::kMalformed, "expected a JSON array of items");
      return result;
    }
    rows = parsed.extract<Poco::JSON::Array::Ptr>();
  } catch (const Poco::Exception& e) {
    result.status = Status(Status::Code::kMalformed, "invalid JSON: " + e.displayText());
    return result;
  }

  std::size_t skipped_no_price = 0;
  std::size_t skipped_currency = 0;
  std::size_t skipped_invalid = 0;
  result.observations.reserve(rows->size());
  for (std::size_t i = 0; i < rows->size(); ++i) {
    const Poco::JSON::Object::Ptr row = rows->getObject(static_cast<unsigned>(i));
    if (row.isNull() || !row->has("market_hash_name") || !row->get("market_hash_name").isString()) {
      ++skipped_invalid;
      continue;
    }
    // A row priced in another currency would be stored as USD cents: never pass it on.
    if (row->has("currency") && !row->isNull("currency") &&
        row->get("currency").toString() != "USD") {
      ++skipped_currency;
      continue;
    }
    std::optional<double> price = number(*row, "min_price");
    if (!price) price = number(*row, "suggested_price");
    if (!price) {
      ++skipped_no_price;
      continue;
    }
    sdk::Observation observation;
    observation.market_hash_name = row->get("market_hash_name").extract<std::string>();
    observation.price.form = sdk::QuotedPrice::Form::kMajor;
    observation.price.major = *price;
    observation.volume = std::max<std::int64_t>(0, integer(*row, "quantity").value_or(0));
    observation.observed_at = integer(*row, "updated_at");
    result.observations.push_back(std::move(observation));
  }
  host_.logger().debug("skinport: " + std::to_string(result.observations.size()) + " of " +
                       std::to_string(rows->size()) + " rows priced; skipped " +
                       std::to_string(skipped_no_price) + " without a price, " +
                       std::to_string(skipped_currency) + " in another currency, " +
                       std::to_string(skipped_invalid) + " invalid");
  return result;
}

}  // namespace skinpulse::plugins::skinport
