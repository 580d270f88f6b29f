#pragma once

// Helpers shared by the bundled market-source plugins. Everything here uses the SDK's
// types only, so a plugin links it privately.

#include "skinpulse/sdk/host.hpp"
#include "skinpulse/sdk/source.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace skinpulse::plugins::support {

/// The longest wait a Retry-After may impose: a hostile or broken header must not park a
/// source for ever.
inline constexpr std::int64_t kMaxRetryAfterSeconds = 86400;

/// An integer key in [1, maximum], `fallback` when absent; throws std::invalid_argument
/// naming the key otherwise.
std::int64_t positiveKey(const sdk::Config& config, std::string_view key, std::int64_t fallback,
                         std::int64_t maximum);

/// The `url` key: required, http:// or https://, trailing slashes removed. `example`
/// goes into the error message.
std::string baseUrl(const sdk::Config& config, std::string_view example);

/// A Retry-After value (RFC 9110 §10.2.3: delta-seconds or an IMF-fixdate HTTP-date) as
/// seconds from `now`, clamped to [0, kMaxRetryAfterSeconds]; nullopt when unreadable.
std::optional<std::int64_t> retryAfterSeconds(std::string_view value, std::int64_t now);

/// Reads exactly `count` decimal digits at `pos` into `out`; false when `text` is too
/// short or one of them is not a digit (no sign, no spaces).
bool digitsAt(std::string_view text, std::size_t pos, std::size_t count, int& out);

/// RFC 3339 date-time ("2021-06-13T20:45:21.311794Z", offsets allowed, a space for the
/// 'T') to Unix seconds; nullopt otherwise. CSFloat's `created_at`, lis-skins' `unlock_at`.
std::optional<std::int64_t> parseRfc3339(std::string_view text);

/// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's days_from_civil);
/// `m` is 1-12 and the date must be valid.
std::int64_t daysFromCivil(std::int64_t y, unsigned m, unsigned d);

/// The failure an HTTP answer means, or nullopt for a 2xx: transport errors and 5xx are
/// kUnavailable, an over-cap body kTooLarge, 429 kRateLimited (with its Retry-After),
/// other 4xx kRejected (`auth_hint` is appended for 401/403).
std::optional<sdk::FetchResult> failureOf(const sdk::HttpResponse& response, std::int64_t now,
                                          std::string_view auth_hint = {});

/// Adds the count `n` of `reason` to `skipped` (merged with an entry of that reason).
void addSkip(sdk::SkipCounts& skipped, std::string_view reason, std::int64_t n);

/// Adds one part of a poll that reads several documents (asks and bids, pages) to `into`:
/// its rows and skips always; its quotes when it succeeded, else a `failed_parts` entry
/// named `part` (docs/api.md §19: what the other parts read well is kept).
void addPart(sdk::PollReport& into, sdk::PollReport part, std::string_view part_name);

}  // namespace skinpulse::plugins::support
