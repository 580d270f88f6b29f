#include "ListingReducer.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>

namespace skinpulse::plugins::lisskins {

namespace {

/// USD major units as written ("12.5") to cents; nullopt when unusable.
std::optional<std::int32_t> centsOf(std::string_view text) {
  double value = 0;
  const auto [end, rc] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (rc != std::errc() || end != text.data() + text.size() || !std::isfinite(value)) {
    return std::nullopt;
  }
  if (!(value > 0) || value > static_cast<double>(ListingReducer::kMaxPriceCents) / 100) {
    return std::nullopt;
  }
  const auto cents = std::llround(value * 100);
  if (cents <= 0 || cents > ListingReducer::kMaxPriceCents) return std::nullopt;
  return static_cast<std::int32_t>(cents);
}

/// A positive integer number of seconds, as written.
std::optional<std::int64_t> secondsOf(std::string_view text) {
  std::int64_t value = 0;
  const auto [end, rc] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (rc != std::errc() || end != text.data() + text.size() || value <= 0) return std::nullopt;
  return value;
}

}  // namespace

void ListingReducer::onStartObject() {
  if (depth_ == 2 && in_items_) {
    in_listing_ = true;
    listing_key_.clear();
    name_.clear();
    name_ok_ = false;
    price_cents_.reset();
  }
  ++depth_;
}

void ListingReducer::onEndObject() {
  --depth_;
  if (depth_ == 2 && in_listing_) endListing();
}

void ListingReducer::onStartArray() {
  if (depth_ == 1 && top_key_ == "items") {
    in_items_ = true;
  } else if (depth_ == 2 && in_items_) {
    ++counts_.skipped;  // a listing that is not an object
  }
  ++depth_;
}

void ListingReducer::onEndArray() {
  --depth_;
  if (depth_ == 1 && in_items_) {
    in_items_ = false;
    items_closed_ = true;
  }
}

void ListingReducer::onKey(std::string_view key, bool overlong) {
  // An overlong key is none of ours: a key we read is never longer than the limit.
  if (depth_ == 1) {
    top_key_.assign(overlong ? std::string_view() : key);
  } else if (depth_ == 3 && in_listing_) {
    listing_key_.assign(overlong ? std::string_view() : key);
  }
}

void ListingReducer::onScalar(const JsonScalar& value) {
  if (depth_ == 1) {
    if (top_key_ == "last_update" && value.type == JsonScalar::Type::kNumber && !value.overlong) {
      last_update_ = secondsOf(value.text);
    }
    return;
  }
  if (depth_ == 2 && in_items_) {
    ++counts_.skipped;  // a listing that is not an object
    return;
  }
  if (depth_ != 3 || !in_listing_) return;
  if (listing_key_ == "name") {
    name_ok_ = value.type == JsonScalar::Type::kString && !value.overlong &&
               value.text.find_first_not_of(" \t\r\n") != std::string_view::npos;
    if (name_ok_) name_.assign(value.text);
  } else if (listing_key_ == "price") {
    price_cents_.reset();
    if (value.type == JsonScalar::Type::kNumber && !value.overlong) {
      price_cents_ = centsOf(value.text);
    }
  }
}

void ListingReducer::endListing() {
  in_listing_ = false;
  if (!name_ok_ || !price_cents_) {
    ++counts_.skipped;
    return;
  }
  auto found = prices_.find(name_);
  if (found == prices_.end()) {
    if (prices_.size() >= max_items_) {
      ++counts_.skipped;
      return;
    }
    found = prices_.emplace(name_, std::vector<std::int32_t>()).first;
  }
  found->second.push_back(*price_cents_);
  ++counts_.listings;
}

std::int64_t ListingReducer::medianOf(const std::vector<std::int32_t>& sorted) {
  const std::size_t n = sorted.size();
  if (n % 2 == 1) return sorted[n / 2];
  // Half up: (a + b + 1) / 2 for positive cents.
  return (static_cast<std::int64_t>(sorted[n / 2 - 1]) + sorted[n / 2] + 1) / 2;
}

std::int64_t ListingReducer::p05Of(const std::vector<std::int32_t>& sorted) {
  const std::size_t n = sorted.size();
  const std::size_t rank = (n * 5 + 99) / 100;  // ceil(0.05 n), >= 1 for n >= 1
  return sorted[rank - 1];
}

std::vector<ItemSummary> ListingReducer::summarize() {
  std::vector<ItemSummary> out;
  out.reserve(prices_.size());
  for (auto& [name, cents] : prices_) {
    std::sort(cents.begin(), cents.end());
    ItemSummary summary;
    summary.name = name;
    summary.count = static_cast<std::int64_t>(cents.size());
    summary.min_cents = cents.front();
    summary.p05_cents = p05Of(cents);
    summary.median_cents = medianOf(cents);
    out.push_back(std::move(summary));
  }
  std::sort(out.begin(), out.end(),
            [](const ItemSummary& a, const ItemSummary& b) { return a.name < b.name; });
  return out;
}

}  // namespace skinpulse::plugins::lisskins
