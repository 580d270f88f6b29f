#include "CsfloatSource.hpp"

#include "skinpulse/sdk/url_encoding.hpp"
#include "skinpulse/sdk/variants.hpp"

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
using support::failureOf;
using support::positiveKey;

std::optional<std::string> stringField(const Poco::JSON::Object& object, const std::string& key) {
  if (!object.has(key) || object.isNull(key)) return std::nullopt;
  const Poco::Dynamic::Var value = object.get(key);
  if (!value.isString()) return std::nullopt;
  return value.extract<std::string>();
}

}  // namespace

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

bool readListingsPage(const std::string& body, CheapestListings& cheapest, sdk::PollReport& report,
                      std::string& next_cursor, std::string& error) {
  Poco::JSON::Array::Ptr listings;
  next_cursor.clear();
  try {
    Poco::JSON::Parser parser;
    parser.setDepth(kMaxJsonDepth);
    const Poco::Dynamic::Var parsed = parser.parse(body);
    if (parsed.type() == typeid(Poco::JSON::Array::Ptr)) {
      listings = parsed.extract<Poco::JSON::Array::Ptr>();  // documented bare array
    } else if (parsed.type() == typeid(Poco::JSON::Object::Ptr)) {
      const auto envelope = parsed.extract<Poco::JSON::Object::Ptr>();
      listings = envelope->getArray("data");
      next_cursor = stringField(*envelope, "cursor").value_or("");
    }
  } catch (const Poco::Exception& e) {
    error = "invalid JSON: " + e.displayText();
    return false;
  }
  if (listings.isNull()) {
    error = "expected a listing array or {cursor, data}";
    return false;
  }
  for (std::size_t i = 0; i < listings->size(); ++i) {
    ++report.rows_read;
    const auto listing = listings->getObject(static_cast<unsigned>(i));
    if (listing.isNull()) {
      support::addSkip(report.skipped, "bad_row", 1);
      continue;
    }
    // Auction prices are bids, not a price anyone can buy at.
    const auto type = stringField(*listing, "type");
    if (type && *type != "buy_now") {
      support::addSkip(report.skipped, "not_buy_now", 1);
      continue;
    }
    const auto state = stringField(*listing, "state");
    if (state && *state != "listed") {
      support::addSkip(report.skipped, "not_listed", 1);
      continue;
    }
    const auto cents = support::integerMember(*listing, "price");
    if (!cents || *cents <= 0) {
      support::addSkip(report.skipped, "bad_price", 1);
      continue;
    }
    const auto item = listing->getObject("item");
    const auto name = item.isNull() ? std::nullopt : stringField(*item, "market_hash_name");
    if (!name || name->find_first_not_of(" \t") == std::string::npos) {
      support::addSkip(report.skipped, "bad_name", 1);
      continue;
    }
    std::string variant;
    if (const auto paint = support::integerMember(*item, "paint_index")) {
      if (const auto named = sdk::variantOfPaintIndex(*paint)) variant = std::string(*named);
    }
    ListingCandidate candidate;
    candidate.cents = *cents;
    if (const auto created = stringField(*listing, "created_at")) {
      candidate.observed_at = parseRfc3339(*created);
    }
    auto [it, inserted] = cheapest.try_emplace({*name, std::move(variant)}, candidate);
    if (!inserted && candidate.cents < it->second.cents) it->second = candidate;
  }
  return true;
}

std::vector<sdk::VariantQuote> listingQuotes(const CheapestListings& cheapest) {
  std::vector<sdk::VariantQuote> quotes;
  quotes.reserve(cheapest.size());
  for (const auto& [key, candidate] : cheapest) {
    sdk::VariantQuote quote;
    quote.market_hash_name = key.first;
    quote.variant = key.second;
    quote.price.form = sdk::QuotedPrice::Form::kCents;
    quote.price.cents = candidate.cents;
    quote.observed_at = candidate.observed_at;
    quote.currency = "USD";
    quotes.push_back(std::move(quote));
  }
  return quotes;
}

sdk::PollReport CsfloatSource::poll() {
  if (price_list_) return support::pollList(host_, price_list_request_, priceListMapping());
  return fetchListings();
}

sdk::PollReport CsfloatSource::fetchListings() {
  CheapestListings cheapest;
  sdk::PollReport result;
  std::string cursor;
  std::size_t pages = 0;
  std::optional<sdk::PollReport::PartFailure> failure;
  std::optional<std::int64_t> retry_after;
  while (pages < max_pages_) {
    sdk::HttpRequest request;
    request.url = base_url_ + "/api/v1/listings?limit=50&sort_by=most_recent";
    if (!cursor.empty()) request.url += "&cursor=" + percentEncode(cursor);
    request.headers = {{"Authorization", api_key_}, {"Accept", "application/json"}};
    request.timeout = timeout_;
    request.max_body_bytes = max_bytes_;
    const HttpResponse response = host_.http().send(request);
    ++pages;
    const std::string part = "page " + std::to_string(pages);
    if (auto failed = failureOf(response, host_.clock().nowUnixSeconds(), "check api_key")) {
      host_.logger().warn("csfloat /api/v1/listings " + part + ": " + failed->status.message());
      failure = sdk::PollReport::PartFailure{part, std::move(failed->status)};
      retry_after = failed->retry_after_seconds;
      break;
    }
    const std::int64_t rows_before = result.rows_read;
    std::string next_cursor;
    std::string error;
    if (!readListingsPage(response.body, cheapest, result, next_cursor, error)) {
      failure = sdk::PollReport::PartFailure{part, Status(Status::Code::kMalformed, error)};
      break;
    }
    if (next_cursor.empty() || next_cursor == cursor || result.rows_read == rows_before) break;
    cursor = std::move(next_cursor);
  }

  result.quotes = listingQuotes(cheapest);
  if (failure) {
    if (result.quotes.empty()) {
      // Nothing read well: the page's failure is the poll's.
      result.status = failure->status;
      result.retry_after_seconds = retry_after;
      return result;
    }
    result.failed_parts.push_back(std::move(*failure));
    result.retry_after_seconds = retry_after;
  }
  if (result.quotes.empty() && result.rows_read > 0) {
    result.status = Status(Status::Code::kMalformed,
                           "none of the " + std::to_string(result.rows_read) +
                               " listings is a buy-now listing with a price and a name");
  }
  host_.logger().debug("csfloat: " + std::to_string(result.rows_read) + " listings on " +
                       std::to_string(pages) + " pages, " + std::to_string(result.quotes.size()) +
                       " items");
  return result;
}

}  // namespace skinpulse::plugins::csfloat
