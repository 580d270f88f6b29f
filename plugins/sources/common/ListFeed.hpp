#pragma once

// ListFeed: one upstream JSON document parsed with simdjson (DOM), and FeedValue, a borrowed
// view of one value in it with the never-throwing reads every market feed needs: a price in
// a declared unit (number or decimal string), a count, a time, a name. Bulk feeds are "a list
// of {name, price, count, …}" of 20,000-30,000 rows; Poco::JSON builds a tree of Var objects
// for them (~70 ms for 30,000 rows), simdjson a flat tape (a few ms):
// docs/adr/0012-fast-feed-parsing.md. No value is copied out until the caller asks for it; strings
// are views into the tape.

#include "skinpulse/sdk/types.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <simdjson.h>
#include <string>
#include <string_view>
#include <vector>

namespace skinpulse::plugins::support {

/// The unit of numeric prices: `cents`, `major` (dollars) or `milli` (thousandths of a
/// dollar, e.g. Waxpeer's 937999 = $937.999).
enum class PriceUnit { kCents, kMajor, kMilli };

/// One JSON value of a parsed ListFeed, or nothing (a missing member). Valid while the
/// ListFeed that produced it lives and is not re-parsed.
class FeedValue {
 public:
  FeedValue() = default;
  explicit FeedValue(simdjson::dom::element element) : element_(element), present_(true) {}

  /// Missing, or JSON null.
  bool absent() const { return !present_ || element_.is_null(); }
  bool isObject() const { return present_ && element_.is_object(); }
  bool isArray() const { return present_ && element_.is_array(); }
  bool isString() const { return present_ && element_.is_string(); }

  /// The number of entries of an array or object (from the tape, O(1)); 0 otherwise.
  std::size_t size() const;
  /// The member `key` of an object; absent for anything else.
  FeedValue member(std::string_view key) const;
  /// The value at JSON pointer `tokens` (objects by member, arrays by decimal index);
  /// absent when a step is missing or of the wrong type.
  FeedValue at(const std::vector<std::string>& tokens) const;

  /// A JSON string (a view into the parsed document).
  std::optional<std::string_view> text() const;
  /// JSON true/false.
  std::optional<bool> boolean() const;
  /// Any finite JSON number (not a string).
  std::optional<double> number() const;
  /// A JSON number that is an integer fitting int64, or an integral float below 2^53.
  std::optional<std::int64_t> integral() const;

  /// A price read in `unit`: a number, or a string holding a plain decimal number
  /// ("0.512"); any other non-blank string is passed on as text for the host to parse
  /// ("$1,234.56"). Cents must be integral. nullopt otherwise (booleans, objects, …).
  std::optional<sdk::QuotedPrice> price(PriceUnit unit) const;
  /// A count (volume, listings): a non-negative integer, an integral float, or a string of
  /// decimal digits ("5312", market.csgo.com).
  std::optional<std::int64_t> count() const;
  /// A time: an ISO 8601 string (parseIsoTime), Unix seconds as a number (a fraction is
  /// truncated) or as a string of digits; nullopt outside 1970..9999.
  std::optional<std::int64_t> time() const;

  /// Calls `visit(key, value)` for every entry: an array's elements (key nullptr) or an
  /// object's members (a pointer to the member name). Anything else has no entries. Returns the
  /// number visited.
  template <typename Visit>
  std::size_t forEachEntry(Visit&& visit) const {
    std::size_t visited = 0;
    if (!present_) return visited;
    simdjson::dom::array array;
    simdjson::dom::object object;
    if (element_.get_array().get(array) == simdjson::SUCCESS) {
      for (const simdjson::dom::element entry : array) {
        visit(static_cast<const std::string_view*>(nullptr), FeedValue(entry));
        ++visited;
      }
    } else if (element_.get_object().get(object) == simdjson::SUCCESS) {
      for (const simdjson::dom::key_value_pair entry : object) {
        visit(&entry.key, FeedValue(entry.value));
        ++visited;
      }
    }
    return visited;
  }

 private:
  simdjson::dom::element element_;
  bool present_ = false;
};

/// A parsed upstream body. Owns the parser's buffers: one per poll, so an idle source holds
/// no copy of a 30 MiB feed between polls.
class ListFeed {
 public:
  /// `max_depth`: the deepest nesting accepted (a hostile body of a million brackets fails
  /// as DEPTH_ERROR instead of costing a tape of that depth).
  explicit ListFeed(std::size_t max_depth = 16) : max_depth_(max_depth) {}

  /// Parses `body`. nullopt on success, else why not (never quoting the body). Bodies over
  /// `max_bytes` are refused before parsing. A number no double or 64-bit integer holds
  /// (1e400, 2^64) reads as null, so only its row suffers.
  /// The body is read in place when its string has SIMDJSON_PADDING (64) spare bytes of
  /// capacity, else copied once into a padded buffer.
  std::optional<std::string> parse(const std::string& body, std::size_t max_bytes);

  /// The document; absent until a parse succeeded.
  FeedValue root() const { return root_; }

 private:
  std::size_t max_depth_;
  simdjson::dom::parser parser_;
  std::string repaired_;  ///< the body with unholdable numbers nulled, when it came to that
  FeedValue root_;
};

/// A JSON pointer's reference tokens ("" → none); nullopt when malformed (RFC 6901: it
/// starts with '/', and '~' is only ~0 or ~1).
std::optional<std::vector<std::string>> parsePointer(std::string_view pointer);

/// ISO 8601 date-time, e.g. 2026-11-22T10:15:00Z, 2026-11-22 10:15:00.250+01:00,
/// 2026-11-22T10:15Z or 2026-11-22 (midnight). Without a zone the time is UTC.
std::optional<std::int64_t> parseIsoTime(std::string_view text);

}  // namespace skinpulse::plugins::support
