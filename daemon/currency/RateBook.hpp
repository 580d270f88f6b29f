#pragma once

// RateBook: the newest rate of each currency, whichever rates instance reported it
// (docs/api.md §14: with several instances the newest rate of a currency wins; on a tie
// of times the instance name that sorts first, so the choice never depends on poll order).
// Filled from the store at start and by every successful rates poll.
//
// Thread safety: every member may be called from any thread. Readers take a snapshot
// (an immutable map shared by pointer): ingest converts a whole batch with one snapshot,
// and a poll never blocks a request.

#include "currency/Money.hpp"

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace skinpulse::currency {

class RateBook {
 public:
  using Rates = std::map<std::string, Rate, std::less<>>;  ///< by currency code

  /// Keeps `rate` when it is valid (normaliseRate) and newer than the held rate of its
  /// currency (equal time: the smaller instance name). USD itself is never held: it is
  /// the base. Returns whether the book changed.
  bool offer(const Rate& rate);
  /// offer() for each; returns how many changed the book.
  std::size_t offerAll(const std::vector<Rate>& rates);

  /// The held rate of `code`, or nullopt.
  std::optional<Rate> rateOf(std::string_view code) const;
  /// Every held rate, by code. Never null.
  std::shared_ptr<const Rates> snapshot() const;

  /// A book that stays empty: what an API without a book converts with (only USD).
  static const RateBook& none();

 private:
  mutable std::mutex mutex_;
  std::shared_ptr<const Rates> rates_ = std::make_shared<const Rates>();
};

}  // namespace skinpulse::currency
