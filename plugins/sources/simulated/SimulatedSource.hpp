#pragma once

// simulated: a market source that invents plausible prices without any network. It
// starts from a seed file (share/simulated/seed.tsv: name, cents, daily volatility) and
// moves each price by a geometric random walk scaled by the item's volatility and the
// time since the item's previous observation, with rare jumps.

#include "skinpulse/sdk/host.hpp"
#include "skinpulse/sdk/source.hpp"

#include <cstdint>
#include <istream>
#include <string>
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
};

/// Reads and validates the instance's keys; throws std::runtime_error naming the key.
SimulatedSettings readSettings(const sdk::Config& config);

class SimulatedSource final : public sdk::MarketSource {
 public:
  /// Reads the keys from host.config() and loads the seed file; throws to refuse them.
  explicit SimulatedSource(sdk::Host& host);
  SimulatedSource(sdk::Host& host, const SimulatedSettings& settings);
  SimulatedSource(sdk::Host& host, SimulatedSettings settings, std::vector<SeedEntry> seed);

  sdk::FetchResult fetch() override;

  std::size_t itemCount() const { return items_.size(); }

 private:
  struct Item {
    std::string name;
    double price = 0;          ///< cents, kept >= 1
    double volatility = 0;     ///< daily log-return standard deviation
    std::int64_t last_ms = 0;  ///< time of the previous step (construction time at first)
  };

  std::uint64_t next();
  double uniform();  ///< [0, 1)
  double normal();   ///< standard normal (Box-Muller)
  void step(Item& item, std::int64_t now_ms);

  sdk::Host& host_;
  SimulatedSettings settings_;
  std::vector<Item> items_;
  std::vector<std::size_t> order_;         ///< scratch permutation for sampling
  std::uint64_t state_[4] = {0, 0, 0, 0};  ///< xoshiro256** state
};

}  // namespace skinpulse::plugins::simulated
