#include "ListingReducer.hpp"

#include "skinpulse/sdk/variants.hpp"

#include "SourceSupport.hpp"

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
    locked_ = false;
    unlock_unreadable_ = false;
    variant_.clear();
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
    skip(&ReduceCounts::bad_row);  // a listing that is not an object
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
    skip(&ReduceCounts::bad_row);  // a listing that is not an object
    return;
  }
  if (depth_ != 3 || !in_listing_) return;
  if (listing_key_ == "name") {
    name_ok_ = value.type == JsonScalar::Type::kString && !value.overlong &&
               value.text.find('\0') == std::string_view::npos &&
               value.text.find_first_not_of(" \t\r\n") != std::string_view::npos;
    if (name_ok_) name_.assign(value.text);
  } else if (listing_key_ == "price") {
    price_cents_.reset();
    if (value.type == JsonScalar::Type::kNumber && !value.overlong) {
      price_cents_ = centsOf(value.text);
    }
  } else if (listing_key_ == "unlock_at") {
    // null: tradable now. An ISO time ("2024-07-29T10:00:00.000000Z") or Unix seconds:
    // locked until then.
    locked_ = false;
    unlock_unreadable_ = false;
    if (value.type == JsonScalar::Type::kNull) return;
    std::optional<std::int64_t> until;
    if (value.type == JsonScalar::Type::kString && !value.overlong) {
      until = support::parseRfc3339(value.text);
    } else if (value.type == JsonScalar::Type::kNumber && !value.overlong) {
      until = secondsOf(value.text);
    }
    if (!until) {
      unlock_unreadable_ = true;
    } else {
      locked_ = *until > now_;
    }
  } else if (listing_key_ == "item_paint_index") {
    variant_.clear();
    // A number, as the export's typed clients model it; a string of digits as one
    // lis-skins API answer writes it.
    if (value.overlong ||
        (value.type != JsonScalar::Type::kNumber && value.type != JsonScalar::Type::kString)) {
      return;
    }
    if (const auto index = secondsOf(value.text)) {  // a positive integer
      if (const auto variant = sdk::variantOfPaintIndex(*index)) variant_.assign(*variant);
    }
  }
}

void ListingReducer::skip(std::int64_t ReduceCounts::*reason) {
  ++(counts_.*reason);
  ++counts_.skipped;
}

void ListingReducer::endListing() {
  in_listing_ = false;
  if (!name_ok_) return skip(&ReduceCounts::bad_name);
  if (!price_cents_) return skip(&ReduceCounts::bad_price);
  if (unlock_unreadable_) return skip(&ReduceCounts::bad_time);
  if (locked_) return skip(&ReduceCounts::locked);
  std::string key = name_;
  key.push_back('\0');
  key += variant_;
  auto found = prices_.find(key);
  if (found == prices_.end()) {
    if (prices_.size() >= max_items_) return skip(&ReduceCounts::too_many_items);
    found = prices_.emplace(std::move(key), std::vector<std::int32_t>()).first;
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
  for (auto& [key, cents] : prices_) {
    std::sort(cents.begin(), cents.end());
    ItemSummary summary;
    const std::size_t nul = key.find('\0');
    summary.name = key.substr(0, nul);
    summary.variant = key.substr(nul + 1);
    summary.count = static_cast<std::int64_t>(cents.size());
    summary.min_cents = cents.front();
    summary.p05_cents = p05Of(cents);
    summary.median_cents = medianOf(cents);
    out.push_back(std::move(summary));
  }
  std::sort(out.begin(), out.end(), [](const ItemSummary& a, const ItemSummary& b) {
    return a.name != b.name ? a.name < b.name : a.variant < b.variant;
  });
  return out;
}

}  // namespace skinpulse::plugins::lisskins
