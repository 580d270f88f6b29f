#include "DmarketParse.hpp"

#include "JsonNumbers.hpp"
#include "SourceSupport.hpp"

#include <Poco/Dynamic/Var.h>
#include <Poco/Exception.h>
#include <Poco/JSON/Array.h>
#include <Poco/JSON/Object.h>
#include <Poco/JSON/Parser.h>

#include <algorithm>

namespace skinpulse::plugins::dmarket {
namespace {

// A title longer than any real one is garbage.
constexpr std::size_t kMaxTitleBytes = 512;
// A batch decides its unit only with a few prices: one odd row proves nothing.
constexpr std::size_t kUnitSampleMin = 5;
// The median price of a batch above this many dollars means the "dollars" are cents:
// CS2 batches have medians of cents to tens of dollars.
constexpr std::int64_t kImplausibleMedianCents = 1000 * 100;

std::optional<std::string> stringMember(const Poco::JSON::Object& object, const std::string& key) {
  if (!object.has(key) || object.isNull(key)) return std::nullopt;
  const Poco::Dynamic::Var value = object.get(key);
  if (!value.isString()) return std::nullopt;
  return value.extract<std::string>();
}

// A price written as a string or a JSON integer, as its text.
std::optional<std::string> scalarPriceText(const Poco::JSON::Object& object,
                                           const std::string& key) {
  if (auto text = stringMember(object, key)) return text;
  if (const auto number = support::integerMember(object, key)) return std::to_string(*number);
  return std::nullopt;
}

/// What a price member holds.
struct PriceField {
  enum class Kind { kAbsent, kText, kOtherCurrency, kUnreadable } kind = Kind::kAbsent;
  std::string text;
};

// A price member: the live service writes {"Currency":"USD","Amount":"1500"} (issue 28;
// several public clients model it so), one public spec a plain string ("1500"); a JSON
// integer is accepted too. A Currency other than USD is not a USD price.
PriceField priceField(const Poco::JSON::Object& object, const std::string& key) {
  PriceField out;
  if (!object.has(key) || object.isNull(key)) return out;
  if (auto text = scalarPriceText(object, key)) {
    out.kind = PriceField::Kind::kText;
    out.text = std::move(*text);
    return out;
  }
  const Poco::JSON::Object::Ptr money = object.getObject(key);
  if (money.isNull()) {
    out.kind = PriceField::Kind::kUnreadable;
    return out;
  }
  const auto currency = stringMember(*money, "Currency");
  if (currency && *currency != "USD") {
    out.kind = PriceField::Kind::kOtherCurrency;
    return out;
  }
  auto amount = scalarPriceText(*money, "Amount");
  if (!amount) {
    out.kind = money->has("Amount") && !money->isNull("Amount") ? PriceField::Kind::kUnreadable
                                                                : PriceField::Kind::kAbsent;
    return out;
  }
  out.kind = PriceField::Kind::kText;
  out.text = std::move(*amount);
  return out;
}

void skip(ParsedAnswer& answer, std::string_view reason) {
  ++answer.skipped;
  support::addSkip(answer.reasons, reason, 1);
}

// A whole number written as a JSON integer or as text of digits ("23"), at most `maximum`.
std::optional<std::int64_t> wholeNumber(const Poco::JSON::Object& object, const std::string& key,
                                        std::int64_t maximum) {
  auto value = support::integerMember(object, key);
  if (!value) {
    const auto text = stringMember(object, key);
    if (!text || text->empty() || text->size() > 19) return std::nullopt;
    std::int64_t parsed = 0;
    for (const char c : *text) {
      if (c < '0' || c > '9') return std::nullopt;
      parsed = parsed * 10 + (c - '0');
    }
    value = parsed;
  }
  if (*value < 0 || *value > maximum) return std::nullopt;
  return value;
}

std::optional<std::int64_t> count(const Poco::JSON::Object& object, const std::string& key) {
  return wholeNumber(object, key, kMaxCount);
}

bool usableTitle(const std::optional<std::string>& title) {
  return title && !title->empty() && title->size() <= kMaxTitleBytes &&
         title->find_first_not_of(" \t") != std::string::npos;
}

sdk::VariantQuote quoteOf(const std::string& title, std::int64_t cents, sdk::PriceKind kind) {
  sdk::VariantQuote quote;
  quote.market_hash_name = title;
  quote.price.form = sdk::QuotedPrice::Form::kCents;
  quote.price.cents = cents;
  quote.kind = kind;
  quote.currency = "USD";
  return quote;
}

// The unit check of one batch (README.md, "Price unit"): cents never have a decimal
// point; dollars whose median is over $1,000 in whole numbers are cents.
bool unitLooksWrong(PriceUnit unit, bool any_decimal, std::vector<std::int64_t> cents,
                    bool all_whole) {
  if (unit == PriceUnit::kCents) return any_decimal;
  if (cents.size() < kUnitSampleMin || !all_whole) return false;
  const auto middle = cents.begin() + static_cast<std::ptrdiff_t>(cents.size() / 2);
  std::nth_element(cents.begin(), middle, cents.end());
  return *middle > kImplausibleMedianCents;
}

}  // namespace

std::optional<std::int64_t> priceCents(std::string_view text, PriceUnit unit, bool& looks_major) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
  if (text.empty() || text.size() > 24) return std::nullopt;
  std::int64_t whole = 0;
  std::int64_t fraction = 0;  // in cents, from the first two decimals
  std::size_t i = 0;
  bool digits = false;
  for (; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i) {
    whole = whole * 10 + (text[i] - '0');
    digits = true;
    if (whole > kMaxCents) return std::nullopt;
  }
  if (i < text.size()) {
    if (text[i] != '.') return std::nullopt;
    looks_major = true;
    ++i;
    std::size_t decimals = 0;
    std::int64_t third = 0;  // the first dropped decimal, for rounding half up
    for (; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i, ++decimals) {
      digits = true;
      if (decimals < 2) fraction = fraction * 10 + (text[i] - '0');
      if (decimals == 2) third = text[i] - '0';
    }
    if (i != text.size()) return std::nullopt;
    if (decimals == 1) fraction *= 10;
    if (unit == PriceUnit::kCents) return std::nullopt;  // "12.50" is not a cent price
    std::int64_t cents = whole * 100 + fraction + (third >= 5 ? 1 : 0);
    if (!digits || cents <= 0 || cents > kMaxCents) return std::nullopt;
    return cents;
  }
  if (!digits) return std::nullopt;
  const std::int64_t cents = unit == PriceUnit::kCents ? whole : whole * 100;
  if (cents <= 0 || cents > kMaxCents) return std::nullopt;
  return cents;
}

ParsedAnswer parseAggregated(const std::string& body, PriceUnit unit) {
  ParsedAnswer answer;
  const Poco::JSON::Object::Ptr root = support::parseJsonObject(body, answer.error);
  if (root.isNull()) return answer;
  const Poco::JSON::Array::Ptr rows =
      root->has("aggregatedPrices") ? root->getArray("aggregatedPrices") : nullptr;
  if (rows.isNull()) {
    answer.error = "no aggregatedPrices array";
    return answer;
  }
  std::vector<std::int64_t> sample;
  bool any_decimal = false;
  bool all_whole = true;
  answer.rows = rows->size();
  for (std::size_t i = 0; i < rows->size(); ++i) {
    const Poco::JSON::Object::Ptr row = rows->getObject(static_cast<unsigned>(i));
    if (row.isNull()) {
      skip(answer, "bad_row");
      continue;
    }
    const auto title = stringMember(*row, "title");
    if (!usableTitle(title)) {
      skip(answer, "bad_name");
      continue;
    }
    struct Side {
      const char* price;
      const char* count;
      sdk::PriceKind kind;
    };
    for (const Side side : {Side{"orderBestPrice", "orderCount", sdk::PriceKind::kBid},
                            Side{"offerBestPrice", "offerCount", sdk::PriceKind::kAsk}}) {
      const PriceField price = priceField(*row, side.price);
      const auto listings = count(*row, side.count);
      if (listings && *listings == 0) continue;  // nobody on this side: no price
      if (price.kind == PriceField::Kind::kAbsent) continue;
      if (price.kind == PriceField::Kind::kOtherCurrency) {
        skip(answer, "other_currency");
        continue;
      }
      if (price.kind == PriceField::Kind::kUnreadable) {
        skip(answer, "bad_price");
        continue;
      }
      if (price.text == "0") continue;
      bool decimal = false;
      const auto cents = priceCents(price.text, unit, decimal);
      any_decimal = any_decimal || decimal;
      if (!cents) {
        skip(answer, "bad_price");
        continue;
      }
      all_whole = all_whole && !decimal;
      sample.push_back(*cents);
      sdk::VariantQuote quote = quoteOf(*title, *cents, side.kind);
      quote.listings = listings;
      answer.quotes.push_back(std::move(quote));
    }
  }
  if (unitLooksWrong(unit, any_decimal, std::move(sample), all_whole)) {
    answer.quotes.clear();
    answer.unit_mismatch = true;
    answer.error = unit == PriceUnit::kCents
                       ? "prices have decimals, so they are not cents: set price_unit = major"
                       : "whole-number prices with a median over $1,000 are cents: set "
                         "price_unit = cents";
    return answer;
  }
  answer.ok = true;
  return answer;
}

ParsedAnswer parseSales(const std::string& body, const std::string& title, PriceUnit unit) {
  ParsedAnswer answer;
  const Poco::JSON::Object::Ptr root = support::parseJsonObject(body, answer.error);
  if (root.isNull()) return answer;
  const Poco::JSON::Array::Ptr sales = root->has("sales") ? root->getArray("sales") : nullptr;
  if (sales.isNull()) {
    answer.error = "no sales array";
    return answer;
  }
  answer.rows = sales->size();
  bool any_decimal = false;
  for (std::size_t i = 0; i < sales->size(); ++i) {
    const Poco::JSON::Object::Ptr sale = sales->getObject(static_cast<unsigned>(i));
    if (sale.isNull()) {
      skip(answer, "bad_row");
      continue;
    }
    const PriceField price = priceField(*sale, "price");
    if (price.kind == PriceField::Kind::kOtherCurrency) {
      skip(answer, "other_currency");
      continue;
    }
    const std::optional<std::string> text = price.kind == PriceField::Kind::kText
                                                ? std::optional<std::string>(price.text)
                                                : std::nullopt;
    bool decimal = false;
    const auto cents = text ? priceCents(*text, unit, decimal) : std::nullopt;
    any_decimal = any_decimal || decimal;
    // Unix seconds; anything past the year 9999 is garbage.
    const std::optional<std::int64_t> date = wholeNumber(*sale, "date", 253402300799);
    if (!cents || !date || *date <= 0) {
      skip(answer, !cents ? "bad_price" : "bad_time");
      continue;
    }
    sdk::VariantQuote quote = quoteOf(title, *cents, sdk::PriceKind::kSale);
    quote.observed_at = *date;
    answer.quotes.push_back(std::move(quote));
  }
  if (unit == PriceUnit::kCents && any_decimal) {
    answer.quotes.clear();
    answer.unit_mismatch = true;
    answer.error = "sale prices have decimals, so they are not cents: set price_unit = major";
    return answer;
  }
  answer.ok = true;
  return answer;
}

}  // namespace skinpulse::plugins::dmarket
