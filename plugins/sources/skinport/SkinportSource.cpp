#include "SkinportSource.hpp"

#include "JsonNumbers.hpp"
#include "SourceSupport.hpp"

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

// The deepest nesting a response may have: the real shape needs a few levels, and a
// hostile body of a million brackets must fail fast instead of exhausting the stack.
constexpr std::size_t kMaxJsonDepth = 16;

using sdk::FetchResult;
using sdk::HttpResponse;
using sdk::Status;
using support::failureOf;
using support::integerMember;
using support::numberMember;
using support::positiveKey;

constexpr std::int64_t kDefaultMaxBytes = 32 * 1024 * 1024;

}  // namespace

SkinportSource::SkinportSource(sdk::Host& host) : host_(host) {
  const auto& config = host.config();
  const std::string url = support::baseUrl(config, "https://api.skinport.com");
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

sdk::QuoteBatch SkinportSource::fetchQuotes() {
  sdk::HttpRequest request;
  request.url = request_url_;
  request.headers = {{"Accept-Encoding", "br"}, {"Accept", "application/json"}};
  request.timeout = timeout_;
  request.max_body_bytes = max_bytes_;
  const HttpResponse response = host_.http().send(request);
  if (auto failed = failureOf(response, host_.clock().nowUnixSeconds())) {
    host_.logger().warn("skinport /v1/items: " + failed->status.message());
    sdk::QuoteBatch refused;
    refused.status = std::move(failed->status);
    refused.retry_after_seconds = failed->retry_after_seconds;
    return refused;
  }

  sdk::QuoteBatch result;
  Poco::JSON::Array::Ptr rows;
  try {
    Poco::JSON::Parser parser;
    parser.setDepth(kMaxJsonDepth);
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
  result.quotes.reserve(rows->size());
  for (std::size_t i = 0; i < rows->size(); ++i) {
    const Poco::JSON::Object::Ptr row = rows->getObject(static_cast<unsigned>(i));
    // A row without a usable name is garbage, not an item (the fuzzer's find: "" passed).
    if (row.isNull() || !row->has("market_hash_name") || !row->get("market_hash_name").isString() ||
        row->get("market_hash_name").extract<std::string>().find_first_not_of(" \t") ==
            std::string::npos) {
      ++skipped_invalid;
      continue;
    }
    // A row priced in another currency would be stored as USD cents: never pass it on.
    if (row->has("currency") && !row->isNull("currency") &&
        row->get("currency").toString() != "USD") {
      ++skipped_currency;
      continue;
    }
    sdk::MarketQuote quote;
    std::optional<double> price = numberMember(*row, "min_price");
    if (!price) {
      price = numberMember(*row, "suggested_price");
      quote.kind = sdk::PriceKind::kReference;  // nobody lists it: Skinport's own estimate
    }
    if (!price) {
      ++skipped_no_price;
      continue;
    }
    quote.market_hash_name = row->get("market_hash_name").extract<std::string>();
    quote.price.form = sdk::QuotedPrice::Form::kMajor;
    quote.price.major = *price;
    quote.volume = 0;  // /v1/items has no traded volume
    if (const auto quantity = integerMember(*row, "quantity"); quantity && *quantity >= 0) {
      quote.listings = *quantity;
    }
    quote.currency = "USD";
    quote.observed_at = integerMember(*row, "updated_at");
    result.quotes.push_back(std::move(quote));
  }
  host_.logger().debug("skinport: " + std::to_string(result.quotes.size()) + " of " +
                       std::to_string(rows->size()) + " rows priced; skipped " +
                       std::to_string(skipped_no_price) + " without a price, " +
                       std::to_string(skipped_currency) + " in another currency, " +
                       std::to_string(skipped_invalid) + " invalid");
  return result;
}

}  // namespace skinpulse::plugins::skinport
