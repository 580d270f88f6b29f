#pragma once

// How json_http finds items and their fields in an upstream's JSON document: the mapping
// keys of plugins/sources/json_http/README.md (items_path, name_field, price_field,
// price_unit, volume_field, listings_field, time_field, currency). Pure functions over a
// parsed Poco document; no I/O. Every reader answers "absent", a value, or "malformed":
// never an exception (numbers go through JsonNumbers.hpp).

#include "skinpulse/sdk/types.hpp"

#include <Poco/Dynamic/Var.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace skinpulse::plugins::json_http {

/// Where a field is, written in the configuration as:
///   `name`      a member of the item (the common case);
///   `/a/b`      a JSON pointer (RFC 6901, `~0` = `~`, `~1` = `/`) into the item;
///   `#/a/b`     a JSON pointer into the whole document (one top-level value, e.g. a
///               feed's update time);
///   `` (empty)  the item value itself (a feed keyed by name whose values are prices).
struct FieldPath {
  bool from_root = false;
  std::vector<std::string> tokens;  ///< a member name is one token; the item itself none

  /// Parses the forms above; throws std::runtime_error naming `key` when malformed (a
  /// pointer must start with '/', '~' must be followed by 0 or 1).
  static FieldPath parse(std::string_view key, std::string_view text);
};

/// A JSON pointer's reference tokens ("" → none); nullopt when malformed.
std::optional<std::vector<std::string>> parsePointer(std::string_view pointer);

/// The value at `tokens` below `from` (objects by member, arrays by decimal index);
/// an empty Var when any step is missing or of the wrong type.
Poco::Dynamic::Var resolve(const Poco::Dynamic::Var& from, const std::vector<std::string>& tokens);

/// The unit of numeric prices: `cents`, `major` (dollars) or `milli` (thousandths of a
/// dollar, e.g. Waxpeer's 937999 = $937.999).
enum class PriceUnit { kCents, kMajor, kMilli };

/// The price of one item: a number, or a string holding a plain decimal number, read in
/// `unit`; any other non-blank string is passed on as text for the host to parse
/// ("$1,234.56"). Cents must be integral. nullopt when it is none of these.
std::optional<sdk::QuotedPrice> readPrice(const Poco::Dynamic::Var& value, PriceUnit unit);

/// A count (volume, listings): a non-negative integer, an integral float, or a string of
/// decimal digits ("5312", market.csgo.com). nullopt otherwise.
std::optional<std::int64_t> readCount(const Poco::Dynamic::Var& value);

/// A time: an ISO 8601 string (see parseIsoTime), Unix seconds as a number (a fraction
/// is truncated) or as a string of digits. nullopt otherwise, and outside 1970..9999.
std::optional<std::int64_t> readTime(const Poco::Dynamic::Var& value);

/// ISO 8601 date-time, e.g. 2026-11-22T10:15:00Z, 2026-11-22 10:15:00.250+01:00,
/// 2026-11-22T10:15Z or 2026-11-22 (midnight). Without a zone the time is UTC.
std::optional<std::int64_t> parseIsoTime(std::string_view text);

/// True for JSON null and for a missing value.
inline bool isAbsent(const Poco::Dynamic::Var& value) { return value.isEmpty(); }

}  // namespace skinpulse::plugins::json_http
