#include "SimulatedSource.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <fstream>
#include <random>
#include <stdexcept>
#include <system_error>
#include <unordered_set>
#include <utility>

namespace skinpulse::plugins::simulated {
namespace {

constexpr double kMaxStepDays = 7.0;     // a long pause does not become a crash
constexpr double kMaxPriceCents = 1e11;  // one billion dollars
constexpr double kJumpMin = 0.05;
constexpr double kJumpMax = 0.25;
constexpr double kPi = 3.14159265358979323846;

std::string lineError(const std::string& origin, std::size_t line, const std::string& what) {
  return "seed file " + origin + " line " + std::to_string(line) + ": " + what;
}

bool parseInt64(std::string_view text, std::int64_t& out) {
  const auto* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, out);
  return ec == std::errc() && ptr == end && !text.empty();
}

bool parseUint64(std::string_view text, std::uint64_t& out) {
  const auto* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, out);
  return ec == std::errc() && ptr == end && !text.empty();
}

bool parseDouble(std::string_view text, double& out) {
  const auto* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, out, std::chars_format::general);
  return ec == std::errc() && ptr == end && !text.empty() && std::isfinite(out);
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

double probabilityKey(const sdk::Config& config, const char* key, double fallback,
                      bool allow_zero) {
  const auto value = config.get(key);
  if (!value) return fallback;
  double out = 0;
  if (!parseDouble(trim(*value), out) || out > 1.0 || out < 0.0 || (!allow_zero && out == 0.0)) {
    throw std::runtime_error(std::string(key) + " must be a number in " +
                             (allow_zero ? "[0, 1]" : "(0, 1]"));
  }
  return out;
}

std::uint64_t splitmix64(std::uint64_t& x) {
  std::uint64_t z = (x += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

}  // namespace

std::vector<SeedEntry> parseSeed(std::istream& in, const std::string& origin) {
  std::vector<SeedEntry> entries;
  std::unordered_set<std::string> names;
  std::string line;
  std::size_t number = 0;
  while (std::getline(in, line)) {
    ++number;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (trim(line).empty()) continue;
    const auto tab1 = line.find('\t');
    const auto tab2 = tab1 == std::string::npos ? tab1 : line.find('\t', tab1 + 1);
    if (tab2 == std::string::npos || line.find('\t', tab2 + 1) != std::string::npos) {
      throw std::runtime_error(
          lineError(origin, number, "expected name<TAB>price_cents<TAB>volatility"));
    }
    SeedEntry entry;
    entry.market_hash_name = line.substr(0, tab1);
    const std::string_view view(line);
    if (trim(entry.market_hash_name).empty()) {
      throw std::runtime_error(lineError(origin, number, "empty market_hash_name"));
    }
    if (!parseInt64(view.substr(tab1 + 1, tab2 - tab1 - 1), entry.price_cents) ||
        entry.price_cents <= 0 || entry.price_cents > static_cast<std::int64_t>(kMaxPriceCents)) {
      throw std::runtime_error(lineError(origin, number, "price_cents must be a positive integer"));
    }
    if (!parseDouble(view.substr(tab2 + 1), entry.volatility) || entry.volatility <= 0.0 ||
        entry.volatility > 1.0) {
      throw std::runtime_error(lineError(origin, number, "volatility must be a number in (0, 1]"));
    }
    if (!names.insert(entry.market_hash_name).second) {
      throw std::runtime_error(lineError(origin, number, "duplicate market_hash_name"));
    }
    entries.push_back(std::move(entry));
  }
  if (in.bad()) throw std::runtime_error("seed file " + origin + ": read error");
  if (entries.empty()) throw std::runtime_error("seed file " + origin + " holds no items");
  return entries;
}

std::vector<SeedEntry> loadSeedFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("seed_file " + path + " cannot be opened");
  return parseSeed(in, path);
}

SimulatedSettings readSettings(const sdk::Config& config) {
  SimulatedSettings settings;
  const auto seed_file = config.get("seed_file");
  if (!seed_file || trim(*seed_file).empty()) {
    throw std::runtime_error("seed_file is required (path of share/simulated/seed.tsv)");
  }
  settings.seed_file = std::string(trim(*seed_file));
  settings.fraction = probabilityKey(config, "fraction", 0.02, false);
  settings.jump_probability = probabilityKey(config, "jump_probability", 0.002, true);
  if (const auto seed = config.get("seed")) {
    if (!parseUint64(trim(*seed), settings.seed)) {
      throw std::runtime_error("seed must be a non-negative integer");
    }
    settings.has_seed = true;
  }
  // `url` is accepted (every source takes one, docs/api.md 1.2) and ignored.
  return settings;
}

SimulatedSource::SimulatedSource(sdk::Host& host)
    : SimulatedSource(host, readSettings(host.config())) {}

SimulatedSource::SimulatedSource(sdk::Host& host, const SimulatedSettings& settings)
    : SimulatedSource(host, settings, loadSeedFile(settings.seed_file)) {}

SimulatedSource::SimulatedSource(sdk::Host& host, SimulatedSettings settings,
                                 std::vector<SeedEntry> seed)
    : host_(host), settings_(std::move(settings)) {
  std::uint64_t x = settings_.seed;
  if (!settings_.has_seed) {
    std::random_device device;
    x = (static_cast<std::uint64_t>(device()) << 32) ^ device();
  }
  for (auto& word : state_) word = splitmix64(x);

  const std::int64_t now_ms = host_.clock().nowUnixMillis();
  items_.reserve(seed.size());
  for (auto& entry : seed) {
    items_.push_back(Item{std::move(entry.market_hash_name), static_cast<double>(entry.price_cents),
                          entry.volatility, now_ms});
  }
  order_.resize(items_.size());
  for (std::size_t i = 0; i < order_.size(); ++i) order_[i] = i;
}

std::uint64_t SimulatedSource::next() {
  const std::uint64_t result = rotl(state_[1] * 5, 7) * 9;
  const std::uint64_t t = state_[1] << 17;
  state_[2] ^= state_[0];
  state_[3] ^= state_[1];
  state_[1] ^= state_[2];
  state_[0] ^= state_[3];
  state_[2] ^= t;
  state_[3] = rotl(state_[3], 45);
  return result;
}

double SimulatedSource::uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

double SimulatedSource::normal() {
  const double u1 = 1.0 - uniform();  // (0, 1]
  const double u2 = uniform();
  return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * kPi * u2);
}

void SimulatedSource::step(Item& item, std::int64_t now_ms) {
  double days = static_cast<double>(now_ms - item.last_ms) / 86400000.0;
  days = std::clamp(days, 0.0, kMaxStepDays);
  item.last_ms = std::max(item.last_ms, now_ms);
  const double sigma = item.volatility * std::sqrt(days);
  // Zero-drift geometric walk: E[price] stays put.
  double log_return = sigma * normal() - 0.5 * sigma * sigma;
  if (uniform() < settings_.jump_probability) {
    const double size = kJumpMin + (kJumpMax - kJumpMin) * uniform();
    log_return += std::log(uniform() < 0.5 ? 1.0 - size : 1.0 + size);
  }
  item.price = std::clamp(item.price * std::exp(log_return), 1.0, kMaxPriceCents);
}

sdk::FetchResult SimulatedSource::fetch() {
  sdk::FetchResult result;
  const std::int64_t now_ms = host_.clock().nowUnixMillis();
  const std::size_t n = items_.size();
  auto count = static_cast<std::size_t>(std::llround(settings_.fraction * static_cast<double>(n)));
  count = std::clamp<std::size_t>(count, 1, n);

  // Partial Fisher-Yates: the first `count` entries of order_ become a uniform sample.
  std::size_t unknown = 0;
  result.observations.reserve(count);
  for (std::size_t i = 0; i < count; ++i) {
    const std::size_t j = i + static_cast<std::size_t>(next() % (n - i));
    std::swap(order_[i], order_[j]);
    Item& item = items_[order_[i]];
    if (!host_.catalog().findByName(item.name)) {
      ++unknown;
      continue;
    }
    step(item, now_ms);
    sdk::Observation observation;
    observation.market_hash_name = item.name;
    observation.price.form = sdk::QuotedPrice::Form::kCents;
    observation.price.cents = std::max<std::int64_t>(1, std::llround(item.price));
    const std::int64_t max_volume = item.price < 100 ? 40 : item.price < 10000 ? 12 : 3;
    observation.volume =
        1 + static_cast<std::int64_t>(next() % static_cast<std::uint64_t>(max_volume));
    observation.observed_at = now_ms / 1000;
    result.observations.push_back(std::move(observation));
  }
  host_.logger().debug("simulated " + std::to_string(result.observations.size()) +
                       " observations, " + std::to_string(unknown) +
                       " sampled items not in the catalogue");
  return result;
}

}  // namespace skinpulse::plugins::simulated
