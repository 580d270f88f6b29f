#include "FeedMapping.hpp"

#include "skinpulse/sdk/variants.hpp"

#include <algorithm>
#include <cstdlib>
#include <stdexcept>
#include <utility>

namespace skinpulse::plugins::support {
namespace {

enum class RowProblem {
  kNone,
  kRow,
  kName,
  kNoPrice,
  kCurrency,
  kPrice,
  kVolume,
  kListings,
  kTime
};

bool blank(std::string_view s) { return s.find_first_not_of(" \t") == std::string_view::npos; }

// The value of `path` for one item of the document.
FeedValue field(const FieldPath& path, FeedValue item, FeedValue root) {
  return (path.from_root ? root : item).at(path.tokens);
}

bool positive(const sdk::QuotedPrice& price) {
  switch (price.form) {
    case sdk::QuotedPrice::Form::kCents:
      return price.cents > 0;
    case sdk::QuotedPrice::Form::kMajor:
      return price.major > 0;
    case sdk::QuotedPrice::Form::kText:
      break;
  }
  return true;  // the host's text parser decides
}

// An optional count (volume, listings) into `out`; false when present and unreadable.
bool readCount(const std::optional<FieldPath>& path, FeedValue item, FeedValue root, bool lenient,
               std::optional<std::int64_t>& out) {
  if (!path) return true;
  const FeedValue value = field(*path, item, root);
  if (value.absent()) return true;
  out = value.count();
  return out.has_value() || lenient;
}

bool hasMember(FeedValue object, std::string_view key) {
  bool found = false;
  object.forEachEntry([&](const std::string_view* name, FeedValue) {
    found = found || (name != nullptr && *name == key);
  });
  return found;
}

// A price written as an object ({"price": n} or {"starting_at": {"price": n}}) as the
// value inside it (null inside: no price); any other value, and an object of neither
// shape (a bad price), as itself.
FeedValue unwrapPrice(FeedValue price) {
  if (!price.isObject()) return price;
  if (hasMember(price, "price")) return price.member("price");
  if (hasMember(price, "starting_at")) return price.at({"starting_at", "price"});
  return price;
}

// A variant named by a string ("Ruby", "phase_2") or by a paint index (415, or "415" as an
// object key); empty when it names none.
std::string variantOf(FeedValue value) {
  if (const auto text = value.text()) {
    if (const auto named = sdk::variantNamed(*text)) return std::string(*named);
    if (!text->empty() && text->size() <= 6 &&
        std::all_of(text->begin(), text->end(), [](char c) { return c >= '0' && c <= '9'; })) {
      if (const auto indexed = sdk::variantOfPaintIndex(std::stoll(std::string(*text)))) {
        return std::string(*indexed);
      }
    }
    return {};
  }
  if (const auto index = value.integral()) {
    if (const auto indexed = sdk::variantOfPaintIndex(*index)) return std::string(*indexed);
  }
  return {};
}

// One item: `key` is its member name when the items are an object.
RowProblem readItem(const Mapping& mapping, FeedValue root, const std::string_view* key,
                    FeedValue item, const std::optional<std::int64_t>& shared_time,
                    sdk::VariantQuote& out) {
  // A scalar item (YouPin's {name: price}) has no members to look up.
  const bool scalar = !item.isObject() && !item.isArray();
  const bool keyed = mapping.name_from_key && key != nullptr;
  const bool price_inside = !mapping.price.from_root && !mapping.price.tokens.empty();
  const bool name_inside = !keyed && !mapping.name.tokens.empty();
  if (scalar && (price_inside || name_inside)) return RowProblem::kRow;
  if (keyed) {
    out.market_hash_name = std::string(*key);
  } else {
    const auto name = field(mapping.name, item, root).text();
    if (!name) return RowProblem::kName;
    out.market_hash_name = std::string(*name);
  }
  if (blank(out.market_hash_name)) return RowProblem::kName;

  if (mapping.row_currency) {
    const FeedValue currency = field(*mapping.row_currency, item, root);
    if (!currency.absent() &&
        currency.text() != std::optional<std::string_view>(mapping.currency)) {
      return RowProblem::kCurrency;
    }
  }

  FeedValue price = field(mapping.price, item, root);
  out.kind = mapping.kind;
  if (price.absent() && mapping.fallback_price) {
    price = field(*mapping.fallback_price, item, root);
    out.kind = mapping.fallback_kind;
  }
  if (mapping.unwrap_price_objects) price = unwrapPrice(price);
  if (price.absent()) return RowProblem::kNoPrice;
  const auto quoted = price.price(mapping.unit);
  if (!quoted) return RowProblem::kPrice;
  if (mapping.positive_only && !positive(*quoted)) return RowProblem::kNoPrice;
  out.price = *quoted;

  std::optional<std::int64_t> volume;
  if (!readCount(mapping.volume, item, root, mapping.lenient, volume)) return RowProblem::kVolume;
  out.volume = volume.value_or(0);
  if (!readCount(mapping.listings, item, root, mapping.lenient, out.listings)) {
    return RowProblem::kListings;
  }
  if (!mapping.time || mapping.time->from_root) {
    out.observed_at = shared_time;
  } else {
    const FeedValue time = field(*mapping.time, item, root);
    if (!time.absent()) {
      out.observed_at = time.time();
      if (!out.observed_at && !mapping.lenient) return RowProblem::kTime;
    }
  }
  if (mapping.image) {
    // Optional decoration: anything but an https URL is ignored, never a malformed item
    // (the daemon keeps https pictures only).
    const auto image = field(*mapping.image, item, root).text();
    if (image && image->rfind("https://", 0) == 0) out.image_url = std::string(*image);
  }
  out.currency = mapping.currency;
  if (mapping.variant) out.variant = variantOf(field(*mapping.variant, item, root));
  return RowProblem::kNone;
}

// The per-variant prices of one row whose name (and currency) passed: one quote per usable
// entry, timed like the row. Unusable entries are counted, never fatal.
void readVariantPrices(const Mapping& mapping, FeedValue root, FeedValue item,
                       const std::optional<std::int64_t>& shared_time, const sdk::VariantQuote& row,
                       RowCounts& counts, std::vector<sdk::VariantQuote>& out) {
  const FeedValue prices = field(*mapping.variant_prices, item, root);
  if (!prices.isObject()) return;  // absent or null: this name has no variants priced
  std::optional<std::int64_t> observed_at = shared_time;
  if (mapping.time && !mapping.time->from_root) {
    observed_at = field(*mapping.time, item, root).time();
  }
  prices.forEachEntry([&](const std::string_view* key, FeedValue value) {
    if (key == nullptr) return;
    std::string variant;
    if (const auto named = sdk::variantNamed(*key)) {
      variant = std::string(*named);
    } else {
      char digits[8] = {};
      if (key->size() < sizeof digits &&
          std::all_of(key->begin(), key->end(), [](char c) { return c >= '0' && c <= '9'; }) &&
          !key->empty()) {
        std::copy(key->begin(), key->end(), digits);
        if (const auto indexed = sdk::variantOfPaintIndex(std::atoll(digits))) {
          variant = std::string(*indexed);
        }
      }
    }
    if (variant.empty()) {
      ++counts.unknown_variant;
      return;
    }
    const FeedValue price = unwrapPrice(value);
    if (price.absent()) {
      ++counts.no_price;
      return;
    }
    const auto quoted = price.price(mapping.unit);
    if (!quoted) {
      ++counts.bad_price;
      return;
    }
    if (!positive(*quoted)) {
      ++counts.no_price;
      return;
    }
    sdk::VariantQuote quote;
    quote.market_hash_name = row.market_hash_name;
    quote.price = *quoted;
    quote.kind = mapping.kind;
    quote.currency = mapping.currency;
    quote.observed_at = observed_at;
    quote.image_url = row.image_url;
    quote.variant = std::move(variant);
    out.push_back(std::move(quote));
  });
}

void tally(RowProblem problem, RowCounts& counts) {
  switch (problem) {
    case RowProblem::kNone:
      break;
    case RowProblem::kRow:
      ++counts.bad_row;
      break;
    case RowProblem::kName:
      ++counts.bad_name;
      break;
    case RowProblem::kNoPrice:
      ++counts.no_price;
      break;
    case RowProblem::kCurrency:
      ++counts.other_currency;
      break;
    case RowProblem::kPrice:
      ++counts.bad_price;
      break;
    case RowProblem::kVolume:
      ++counts.bad_volume;
      break;
    case RowProblem::kListings:
      ++counts.bad_listings;
      break;
    case RowProblem::kTime:
      ++counts.bad_time;
      break;
  }
}

sdk::PollReport malformed(std::string message) {
  sdk::PollReport report;
  report.status = sdk::Status(sdk::Status::Code::kMalformed, std::move(message));
  return report;
}

bool shapeAccepted(FeedValue items, ItemsShape shape) {
  switch (shape) {
    case ItemsShape::kArray:
      return items.isArray();
    case ItemsShape::kObject:
      return items.isObject();
    case ItemsShape::kAny:
      break;
  }
  return items.isArray() || items.isObject();
}

}  // namespace

FieldPath FieldPath::parse(std::string_view key, std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
  FieldPath path;
  if (text.empty()) return path;
  if (text.front() == '#') {
    path.from_root = true;
    text.remove_prefix(1);
  } else if (text.front() != '/') {
    path.tokens.emplace_back(text);
    return path;
  }
  auto tokens = parsePointer(text);
  if (!tokens) {
    throw std::runtime_error(std::string(key) +
                             " is not a JSON pointer ('/a/b', '#/a/b'; '~' only as ~0 or ~1)");
  }
  path.tokens = std::move(*tokens);
  return path;
}

Mapping listMapping(const ListShape& shape) {
  const auto optional = [](std::string_view key, std::string_view text) {
    return text.empty() ? std::nullopt : std::optional<FieldPath>(FieldPath::parse(key, text));
  };
  Mapping m;
  m.items_path = parsePointer(shape.items).value_or(std::vector<std::string>{});
  m.shape = ItemsShape::kArray;
  m.name = FieldPath::parse("name", shape.name);
  m.price = FieldPath::parse("price", shape.price);
  m.unit = shape.unit;
  m.listings = optional("listings", shape.listings);
  m.time = optional("time", shape.time);
  m.image = optional("image", shape.image);
  if (shape.success) m.success = FieldPath::member("success");
  m.lenient = true;
  m.positive_only = true;
  return m;
}

std::string RowCounts::summary(std::size_t quotes) const {
  return std::to_string(rows) + " items, " + std::to_string(quotes) + " quotes, " +
         std::to_string(no_price) + " without a price, " + std::to_string(malformed()) +
         " malformed items skipped (not object " + std::to_string(bad_row) + ", name " +
         std::to_string(bad_name) + ", price " + std::to_string(bad_price) + ", volume " +
         std::to_string(bad_volume) + ", listings " + std::to_string(bad_listings) + ", time " +
         std::to_string(bad_time) + "), " + std::to_string(other_currency) +
         " in another currency" +
         (unknown_variant > 0 ? ", " + std::to_string(unknown_variant) + " of unknown variants"
                              : std::string());
}

sdk::SkipCounts RowCounts::skipped() const {
  sdk::SkipCounts out;
  const std::pair<const char*, std::size_t> all[] = {{"no_price", no_price},
                                                     {"other_currency", other_currency},
                                                     {"bad_row", bad_row},
                                                     {"bad_name", bad_name},
                                                     {"bad_price", bad_price},
                                                     {"bad_volume", bad_volume},
                                                     {"bad_listings", bad_listings},
                                                     {"bad_time", bad_time},
                                                     {"unknown_variant", unknown_variant}};
  for (const auto& [reason, n] : all) {
    if (n > 0) out.emplace_back(reason, static_cast<std::int64_t>(n));
  }
  return out;
}

sdk::PollReport mapFeed(FeedValue root, const Mapping& mapping, RowCounts& counts) {
  if (mapping.success && field(*mapping.success, root, root).boolean() == false) {
    return malformed("the upstream answered success: false");
  }
  std::optional<std::int64_t> shared_time;
  if (mapping.time && mapping.time->from_root) {
    const FeedValue time = root.at(mapping.time->tokens);
    if (!time.absent()) {
      shared_time = time.time();
      if (!shared_time) return malformed("the feed's top-level time is not a time");
    }
  }
  const FeedValue items = root.at(mapping.items_path);
  if (!shapeAccepted(items, mapping.shape)) {
    const char* what = mapping.shape == ItemsShape::kArray    ? "a JSON array"
                       : mapping.shape == ItemsShape::kObject ? "a JSON object"
                                                              : "a JSON array or object";
    return malformed(
        std::string(mapping.items_path.empty() ? "response top level" : "the items' path") +
        " is not " + what);
  }
  sdk::PollReport result;
  result.quotes.reserve(items.size());
  counts.rows = items.forEachEntry([&](const std::string_view* key, FeedValue item) {
    sdk::VariantQuote quote;
    const RowProblem problem = readItem(mapping, root, key, item, shared_time, quote);
    tally(problem, counts);
    const bool identified = problem != RowProblem::kRow && problem != RowProblem::kName &&
                            problem != RowProblem::kCurrency;
    std::vector<sdk::VariantQuote> variants;
    if (mapping.variant_prices && identified) {
      readVariantPrices(mapping, root, item, shared_time, quote, counts, variants);
    }
    if (problem == RowProblem::kNone) result.quotes.push_back(std::move(quote));
    for (auto& variant : variants) result.quotes.push_back(std::move(variant));
  });
  result.rows_read = static_cast<std::int64_t>(counts.rows);
  result.skipped = counts.skipped();
  if (counts.rows > 0 && result.quotes.empty()) {
    sdk::PollReport failed =
        malformed("none of the " + std::to_string(counts.rows) + " items is usable");
    failed.rows_read = result.rows_read;
    failed.skipped = std::move(result.skipped);
    return failed;
  }
  return result;
}

sdk::PollReport parseList(const std::string& body, const Mapping& mapping, std::size_t max_depth,
                          RowCounts& counts) {
  ListFeed feed(max_depth);
  if (auto error = feed.parse(body, body.size())) return malformed(std::move(*error));
  return mapFeed(feed.root(), mapping, counts);
}

}  // namespace skinpulse::plugins::support
