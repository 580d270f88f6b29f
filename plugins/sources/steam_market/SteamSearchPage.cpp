#include "SteamSearchPage.hpp"

#include "JsonNumbers.hpp"

#include <Poco/Dynamic/Var.h>
#include <Poco/Exception.h>
#include <Poco/JSON/Array.h>
#include <Poco/JSON/Object.h>
#include <Poco/JSON/Parser.h>

namespace skinpulse::plugins::steam_market {
namespace {

// Longer names and icon paths than any real one are garbage.
constexpr std::size_t kMaxNameBytes = 512;
constexpr std::size_t kMaxIconBytes = 1024;
constexpr std::int64_t kMaxListings = 100'000'000;

std::string stringMember(const Poco::JSON::Object& object, const std::string& key) {
  if (!object.has(key) || object.isNull(key)) return {};
  const Poco::Dynamic::Var value = object.get(key);
  return value.isString() ? value.extract<std::string>() : std::string();
}

bool usableName(const std::string& name) {
  return !name.empty() && name.size() <= kMaxNameBytes &&
         name.find_first_not_of(" \t") != std::string::npos;
}

}  // namespace

std::string imageUrlOf(const std::string& icon_url) {
  if (icon_url.empty() || icon_url.size() > kMaxIconBytes) return {};
  for (const char c : icon_url) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    c == '-' || c == '_' || c == '.' || c == '/';
    if (!ok) return {};
  }
  if (icon_url.find("..") != std::string::npos || icon_url.front() == '/') return {};
  return kSteamImageBase + icon_url;
}

SearchPage parseSearchPage(const std::string& body) {
  SearchPage page;
  const Poco::JSON::Object::Ptr root = support::parseJsonObject(body, page.error);
  if (root.isNull()) return page;
  if (root->has("success") && !root->isNull("success")) {
    const Poco::Dynamic::Var success = root->get("success");
    const bool yes = success.type() == typeid(bool) ? success.extract<bool>()
                                                    : support::jsonInteger(success) == 1;
    if (!yes) {
      page.error = "success is not true";
      return page;
    }
  }
  if (const auto total = support::integerMember(*root, "total_count"); total && *total >= 0) {
    page.total_count = *total;
  }
  // Throttled answers may carry results: null or leave it out; that is an empty page.
  const Poco::JSON::Array::Ptr results =
      root->has("results") && !root->isNull("results") ? root->getArray("results") : nullptr;
  if (root->has("results") && !root->isNull("results") && results.isNull()) {
    page.error = "results is not an array";
    return page;
  }
  page.ok = true;
  if (results.isNull()) return page;
  page.results = results->size();
  page.quotes.reserve(results->size());
  for (std::size_t i = 0; i < results->size(); ++i) {
    const Poco::JSON::Object::Ptr row = results->getObject(static_cast<unsigned>(i));
    if (row.isNull()) {
      ++page.skipped;
      continue;
    }
    const Poco::JSON::Object::Ptr asset =
        row->has("asset_description") ? row->getObject("asset_description") : nullptr;
    std::string name = stringMember(*row, "hash_name");
    if (name.empty() && !asset.isNull()) name = stringMember(*asset, "market_hash_name");
    const auto cents = support::integerMember(*row, "sell_price");
    const auto listings = support::integerMember(*row, "sell_listings");
    if (!usableName(name) || !cents || (listings && (*listings < 0 || *listings > kMaxListings))) {
      ++page.skipped;
      continue;
    }
    // No listing, no ask: Steam writes sell_price 0 for an item nobody sells.
    if (*cents <= 0 || *cents > kMaxSearchCents || (listings && *listings == 0)) {
      if (*cents < 0 || *cents > kMaxSearchCents) ++page.skipped;
      continue;
    }
    sdk::MarketQuote quote;
    quote.market_hash_name = std::move(name);
    quote.price.form = sdk::QuotedPrice::Form::kCents;
    quote.price.cents = *cents;
    quote.listings = listings;
    quote.currency = "USD";
    if (!asset.isNull()) quote.image_url = imageUrlOf(stringMember(*asset, "icon_url"));
    page.quotes.push_back(std::move(quote));
  }
  return page;
}

}  // namespace skinpulse::plugins::steam_market
