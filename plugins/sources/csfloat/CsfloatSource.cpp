#include "CsfloatSource.hpp"

#include "skinpulse/sdk/url_encoding.hpp"

#include "JsonNumbers.hpp"
#include "ListSource.hpp"
#include "SourceSupport.hpp"

#include <Poco/Dynamic/Var.h>
#include <Poco/Exception.h>
#include <Poco/JSON/Array.h>
#include <Poco/JSON/Object.h>
#include <Poco/JSON/Parser.h>

#include <algorithm>
#include <charconv>
#include <map>
#include <stdexcept>
#include <utility>

namespace skinpulse::plugins::csfloat {
namespace {

// The deepest nesting a response may have: the real shape needs a few levels, and a
// hostile body of a million brackets must fail fast instead of exhausting the stack.
constexpr std::size_t kMaxJsonDepth = 16;

using sdk::HttpResponse;
using sdk::percentEncode;
using sdk::Status;
using support::daysFromCivil;
using support::digitsAt;
using support::failureOf;
using support::positiveKey;

struct Candidate {
  std::int64_t cents = 0;
  std::optional<std::int64_t> observed_at;
};

std::optional<std::string> stringField(const Poco::JSON::Object& object, const std::string& key) {
  if (!object.has(key) || object.isNull(key)) return std::nullopt;
  const Poco::Dynamic::Var value = object.get(key);
  if (!value.isString()) return std::nullopt;
  return value.extract<std::string>();
}

}  // namespace

std::optional<std::int64_t> parseRfc3339(std::string_view text) {
  int year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0;
  if (!digitsAt(text, 0, 4, year) || text.size() < 20 || text[4] != '-' ||
      !digitsAt(text, 5, 2, month) || text[7] != '-' || !digitsAt(text, 8, 2, day) ||
      (text[10] != 'T' && text[10] != 't' && text[10] != ' ') || !digitsAt(text, 11, 2, hour) ||
      text[13] != ':' || !digitsAt(text, 14, 2, minute) || text[16] != ':' ||
      !digitsAt(text, 17, 2, second)) {
    return std::nullopt;
  }
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 60) {
    return std::nullopt;
  }
  std::size_t pos = 19;
  if (pos < text.size() && text[pos] == '.') {
    ++pos;
    const std::size_t digits_start = pos;
    while (pos < text.size() && text[pos] >= '0' && text[pos] <= '9') ++pos;
    if (pos == digits_start) return std::nullopt;
  }
  std::int64_t offset = 0;
  if (pos < text.size() && (text[pos] == 'Z' || text[pos] == 'z')) {
    ++pos;
  } else if (pos < text.size() && (text[pos] == '+' || text[pos] == '-')) {
    int oh = 0, om = 0;
    if (!digitsAt(text, pos + 1, 2, oh) || pos + 3 >= text.size() || text[pos + 3] != ':' ||
        !digitsAt(text, pos + 4, 2, om) || oh > 23 || om > 59) {
      return std::nullopt;
    }
    offset = (oh * 3600 + om * 60) * (text[pos] == '+' ? 1 : -1);
    pos += 6;
  } else {
    return std::nullopt;
  }
  if (pos != text.size()) return std::nullopt;
  const std::int64_t days =
      daysFromCivil(year, static_cast<unsigned>(month), static_cast<unsigned>(day));
  return days * 86400 + hour * 3600 + minute * 60 + std::min(second, 59) - offset;
}

support::Mapping priceListMapping() {
  // Integer cents: min_price 1234 = $12.34.
  return support::listMapping({.items = "",
                               .price = "min_price",
                               .unit = support::PriceUnit::kCents,
                               .listings = "quantity"});
}

CsfloatSource::CsfloatSource(sdk::Host& host) : host_(host) {
  const auto& config = host.config();
  const std::string mode = config.getString("mode", "price_list");
  if (mode != "price_list" && mode != "listings") {
    throw std::invalid_argument("mode: expected price_list or listings, got \"" + mode + "\"");
  }
  price_list_ = mode == "price_list";
  base_url_ = support::baseUrl(config, "https://csfloat.com");
  api_key_ = config.getString("api_key", "");
  if (api_key_.find_first_of("\r\n") != std::string::npos || (!price_list_ && api_key_.empty())) {
    throw std::invalid_argument(
        "api_key: a single-line CSFloat API key (required by mode = listings)");
  }
  max_pages_ = static_cast<std::size_t>(positiveKey(config, "max_pages", 5, 100));
  max_bytes_ = static_cast<std::size_t>(positiveKey(config, "max_bytes", 4 * 1024 * 1024, 1 << 28));
  timeout_ = std::chrono::seconds(positiveKey(config, "request_timeout_seconds", 30, 600));
  price_list_request_ = support::readListRequest(
      config,
      {"csfloat", "https://csfloat.com", "/api/v1/listings/price-list", 32u * 1024u * 1024u});
  // Keyless by design; a configured key is sent (it may lift the anonymous rate limit).
  if (!api_key_.empty()) price_list_request_.headers = {{"Authorization", api_key_}};
  price_list_request_.auth_hint = "check api_key";
}

sdk::QuoteBatch CsfloatSource::fetchQuotes() {
  if (price_list_) return support::pollList(host_, price_list_request_, priceListMapping());
  return fetchListings();
}

sdk::QuoteBatch CsfloatSource::fetchListings() {
  std::map<std::string, Candidate> cheapest;
  std::string cursor;
  std::size_t listings_seen = 0;
  std::size_t pages = 0;
  while (pages < max_pages_) {
    sdk::HttpRequest request;
    request.url = base_url_ + "/api/v1/listings?limit=50&sort_by=most_recent";
    if (!cursor.empty()) request.url += "&cursor=" + percentEncode(cursor);
    request.headers = {{"Authorization", api_key_}, {"Accept", "application/json"}};
    request.timeout = timeout_;
    request.max_body_bytes = max_bytes_;
    const HttpResponse response = host_.http().send(request);
    ++pages;
    if (auto failed = failureOf(response, host_.clock().nowUnixSeconds(), "check api_key")) {
      host_.logger().warn("csfloat /api/v1/listings page " + std::to_string(pages) + ": " +
                          failed->status.message());
      sdk::QuoteBatch refused;
      refused.status = std::move(failed->status);
      refused.retry_after_seconds = failed->retry_after_seconds;
      return refused;
    }

    sdk::QuoteBatch malformed;
    Poco::JSON::Array::Ptr listings;
    std::string next_cursor;
    try {
      Poco::JSON::Parser parser;
      parser.setDepth(kMaxJsonDepth);
      const Poco::Dynamic::Var parsed = parser.parse(response.body);
      if (parsed.type() == typeid(Poco::JSON::Array::Ptr)) {
        listings = parsed.extract<Poco::JSON::Array::Ptr>();  // documented bare array
      } else if (parsed.type() == typeid(Poco::JSON::Object::Ptr)) {
        const auto envelope = parsed.extract<Poco::JSON::Object::Ptr>();
        listings = envelope->getArray("data");
        next_cursor = stringField(*envelope, "cursor").value_or("");
      }
    } catch (const Poco::Exception& e) {
      malformed.status = Status(Status::Code::kMalformed, "invalid JSON: " + e.displayText());
      return malformed;
    }
    if (listings.isNull()) {
      malformed.status =
          Status(Status::Code::kMalformed, "expected a listing array or {cursor, data}");
      return malformed;
    }

    for (std::size_t i = 0; i < listings->size(); ++i) {
      const auto listing = listings->getObject(static_cast<unsigned>(i));
      if (listing.isNull()) continue;
      ++listings_seen;
      // Auction prices are bids, not a price anyone can buy at.
      const auto type = stringField(*listing, "type");
      if (type && *type != "buy_now") continue;
      const auto state = stringField(*listing, "state");
      if (state && *state != "listed") continue;
      const auto cents = support::integerMember(*listing, "price");
      if (!cents) continue;
      const auto item = listing->getObject("item");
      if (item.isNull()) continue;
      const auto name = stringField(*item, "market_hash_name");
      if (!name || name->empty()) continue;
      Candidate candidate;
      candidate.cents = *cents;
      if (const auto created = stringField(*listing, "created_at")) {
        candidate.observed_at = parseRfc3339(*created);
      }
      auto [it, inserted] = cheapest.try_emplace(*name, candidate);
      if (!inserted && candidate.cents < it->second.cents) it->second = candidate;
    }
    if (next_cursor.empty() || next_cursor == cursor || listings->size() == 0) break;
    cursor = std::move(next_cursor);
  }

  sdk::QuoteBatch result;
  result.quotes.reserve(cheapest.size());
  for (auto& [name, candidate] : cheapest) {
    sdk::MarketQuote quote;
    quote.market_hash_name = name;
    quote.price.form = sdk::QuotedPrice::Form::kCents;
    quote.price.cents = candidate.cents;
    quote.observed_at = candidate.observed_at;
    quote.currency = "USD";
    result.quotes.push_back(std::move(quote));
  }
  host_.logger().debug("csfloat: " + std::to_string(listings_seen) + " listings on " +
                       std::to_string(pages) + " pages, " + std::to_string(result.quotes.size()) +
                       " items");
  return result;
}

}  // namespace skinpulse::plugins::csfloat
