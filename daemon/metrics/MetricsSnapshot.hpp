#pragma once

// MetricsSnapshot: every item's Volatility metrics object and the rankings of each
// window, as computed after one cycle. Immutable once published: HTTP threads and the
// live-update hub read it without locks while the engine builds the next one.

#include "metrics/Windows.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace skinpulse::metrics {

class MetricsSnapshot {
 public:
  /// Largest `limit` of GET /api/v1/rankings/volatile.
  static constexpr std::size_t kMaxRanking = 100;

  struct Ranked {
    std::int64_t item_id = 0;
    double volatility_score = 0;
    double percent_change = 0;
  };

  /// An item's numbers of one window for alert conditions. `reference` is false when
  /// no source had 2 points in the window (every other field is then 0).
  struct Signal {
    double percent_change = 0;
    double bollinger_upper = 0;
    double bollinger_lower = 0;
    double last_price = 0;  ///< newest point of the reference source in the window
    bool reference = false;
  };

  /// What the engine fills in for one window.
  struct Window {
    std::string objects;  ///< every item's object, back to back
    struct Slot {
      std::int64_t item_id;
      std::uint32_t offset;
      std::uint32_t length;
    };
    std::vector<Slot> slots;                ///< sorted by item_id
    std::vector<Ranked> ranked;             ///< the top kMaxRanking, most volatile first
    std::string ranking;                    ///< their Ranking entry objects, comma-separated
    std::vector<std::size_t> ranking_ends;  ///< end offset in `ranking` of each entry
    std::string empty_tail;                 ///< an object without data, after `{"item_id":N`
    /// The numbers alert rules test (alerts/Evaluator), parallel to `slots`: read as
    /// numbers, never parsed back out of `objects`.
    std::vector<Signal> signals;
  };

  MetricsSnapshot(std::int64_t computed_at, std::array<Window, kWindowCount> windows);

  /// Unix time the snapshot was computed at (its `computed_at`).
  std::int64_t computedAt() const { return computed_at_; }

  /// The pre-rendered Volatility metrics object of an item for a window (index into
  /// kWindows), or an empty view when the item had no point in the last seven days.
  std::string_view volatility(std::int64_t item_id, std::size_t window) const;
  /// The alert numbers of an item for a window (index into kWindows); null when the
  /// item had no point in the last seven days.
  const Signal* signal(std::int64_t item_id, std::size_t window) const;
  /// The same for a window named "1h", "24h" or "7d"; empty for any other name.
  std::string_view volatility(std::int64_t item_id, std::string_view window) const;

  /// The object of an item without data in the window (zero values, samples 0, source
  /// null): what GET .../volatility answers for a catalogue item the engine never saw.
  std::string emptyVolatility(std::int64_t item_id, std::size_t window) const;

  /// JSON array body of the first `limit` (1..kMaxRanking) Ranking entries.
  std::string rankingBody(std::size_t window, std::size_t limit) const;
  const std::vector<Ranked>& ranking(std::size_t window) const { return windows_[window].ranked; }

 private:
  std::int64_t computed_at_;
  std::array<Window, kWindowCount> windows_;
};

}  // namespace skinpulse::metrics
