#pragma once

// simulated: a market source that invents plausible prices without any network. It
// starts from a seed file (share/simulated/seed.tsv: name, cents, daily volatility) and
// moves each price by a geometric random walk scaled by the item's volatility and the
// time since the item's previous observation, with rare jumps.
//
// So that a development run shows several markets side by side (README, issue 32), one
// instance can also act like one market's export: it covers a fixed share of the items
// (chosen by a hash of the name, so instances with the same coverage cover the same items)
// and reports all of them every poll, quotes them at an offset, lags, names Doppler phases
// and now and then sends an outlier row.

#include "skinpulse/sdk/host.hpp"
#include "skinpulse/sdk/source.hpp"

#include <cstdint>
#include <istream>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace skinpulse::plugins::simulated {

/// One line of the seed file.
struct SeedEntry {
  std::string market_hash_name;
  std::int64_t price_cents = 0;
  double volatility = 0;  ///< standard deviation of the daily log return
};

/// Parses seed lines `name<TAB>cents<TAB>volatility`; blank lines are ignored. Throws
/// std::runtime_error naming `origin` and the line on any malformed line, a duplicate
/// name, or when no entry is found.
std::vector<SeedEntry> parseSeed(std::istream& in, const std::string& origin);
/// Opens and parses `path`; throws std::runtime_error when it cannot be read.
std::vector<SeedEntry> loadSeedFile(const std::string& path);

/// Settings of one instance (already validated).
struct SimulatedSettings {
  std::string seed_file;
  double fraction = 0.02;
  double jump_probability = 0.002;
  bool has_seed = false;
  std::uint64_t seed = 0;
  /// Set: the share of the seeded items this market lists, every one reported each poll
  /// (`fraction` of them take a step). Unset: `fraction` of the items sampled per poll.
  std::optional<double> coverage;
  double price_offset_percent = 0;  ///< added to every quoted price, in [-90, 900]
  /// Standard deviation, in percent, of a per-item level of this instance (from a hash of
  /// its name and the item's): how far this market's price of an item sits from another's,
  /// in [0, 50].
  double dispersion_percent = 0;
  double outlier_probability = 0;  ///< chance per row of a x5 or /5 price, in [0, 1]
  std::int64_t lag_seconds = 0;    ///< rows are stamped this much before the poll
  /// Set: after this many answered polls the market stops answering (every later poll
  /// fails as unavailable), so its prices and the source itself go stale.
  std::optional<std::int64_t> outage_after_polls;
  bool variants = false;  ///< Doppler items: one row per phase, named
};

/// FNV-1a 64 of the name's bytes mapped to [0, 1): an item is covered by an instance of
/// coverage c when this is below c (tools/dev-history computes the same).
double coverageRank(std::string_view market_hash_name);

/// The standard normal number behind an item's level on one market (dispersion_percent):
/// Box-Muller over coverageRank("instance|name") and coverageRank("name|instance"), so it
/// is the same on every start and tools/dev-history seeds history at the same level.
double dispersionNormal(const std::string& instance, const std::string& market_hash_name);

/// The finish of a "Weapon | Finish (Exterior)" name ("Doppler"), empty for other names.
std::string_view finishOf(std::string_view market_hash_name);

/// The price of `variant` relative to the item's walked price: the phases differ, the gems
/// are worth several times a phase, and Phase 3 is the cheapest (so the base's price, the
/// lowest of its variants, is Phase 3's).
double variantFactor(std::string_view variant);

/// Reads and validates the instance's keys; throws std::runtime_error naming the key.
SimulatedSettings readSettings(const sdk::Config& config);

class SimulatedSource final : public sdk::ReportingSource {
 public:
  /// Reads the keys from host.config() and loads the seed file; throws to refuse them.
  explicit SimulatedSource(sdk::Host& host);
  SimulatedSource(sdk::Host& host, const SimulatedSettings& settings);
  SimulatedSource(sdk::Host& host, SimulatedSettings settings, std::vector<SeedEntry> seed);

  sdk::PollReport poll() override;

  std::size_t itemCount() const { return items_.size(); }
  /// Seeded items this instance lists (all of them without `coverage`).
  std::size_t coveredCount() const { return settings_.coverage ? covered_.size() : items_.size(); }

 private:
  struct Item {
    std::string name;
    double price = 0;          ///< cents, kept >= 1
    double volatility = 0;     ///< daily log-return standard deviation
    std::int64_t last_ms = 0;  ///< time of the previous step (construction time at first)
    double quote_factor = 1;   ///< this market's own level for the item (dispersion_percent)
  };

  std::uint64_t next();
  double uniform();  ///< [0, 1)
  double normal();   ///< standard normal (Box-Muller)
  void step(Item& item, std::int64_t now_ms);
  /// The indexes of the items to report this poll: the covered and held ones, or a sample.
  std::vector<std::size_t> rowsOfPoll();
  void report(const Item& item, std::int64_t observed_at, sdk::PollReport& out);
  std::int64_t quoted(const Item& item, double factor);

  sdk::Host& host_;
  SimulatedSettings settings_;
  std::vector<Item> items_;
  std::vector<std::size_t> order_;  ///< scratch permutation for sampling
  std::int64_t answered_polls_ = 0;
  std::vector<std::size_t> covered_;  ///< with `coverage`: the listed items, in seed order
  std::unordered_map<std::string_view, std::size_t> index_;  ///< name -> items_ index
  std::uint64_t state_[4] = {0, 0, 0, 0};                    ///< xoshiro256** state
};

}  // namespace skinpulse::plugins::simulated
