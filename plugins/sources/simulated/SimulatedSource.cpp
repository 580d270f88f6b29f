#include "SimulatedSource.hpp"

#include "skinpulse/sdk/variants.hpp"

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
constexpr double kOutlierFactor = 5.0;  // beyond §13's default factor of 3
constexpr std::int64_t kMaxLagSeconds = 30 * 86400;

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

double rangeKey(const sdk::Config& config, const char* key, double fallback, double low,
                double high) {
  const auto value = config.get(key);
  if (!value) return fallback;
  double out = 0;
  if (!parseDouble(trim(*value), out) || out < low || out > high) {
    throw std::runtime_error(std::string(key) + " must be a number in [" + std::to_string(low) +
                             ", " + std::to_string(high) + "]");
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

double coverageRank(std::string_view market_hash_name) {
  std::uint64_t hash = 0xcbf29ce484222325ULL;
  for (const char c : market_hash_name) {
    hash ^= static_cast<unsigned char>(c);
    hash *= 0x100000001b3ULL;
  }
  return static_cast<double>(hash >> 11) * 0x1.0p-53;
}

double dispersionNormal(const std::string& instance, const std::string& market_hash_name) {
  // Box-Muller over two hash ranks: the same number every start, and in tools/dev-history.
  const double u1 = coverageRank(instance + "|" + market_hash_name);
  const double u2 = coverageRank(market_hash_name + "|" + instance);
  return std::sqrt(-2.0 * std::log(1.0 - u1)) * std::cos(2.0 * kPi * u2);
}

std::string_view finishOf(std::string_view market_hash_name) {
  const auto bar = market_hash_name.find(" | ");
  if (bar == std::string_view::npos) return {};
  auto finish = market_hash_name.substr(bar + 3);
  const auto paren = finish.rfind(" (");
  if (paren != std::string_view::npos && finish.back() == ')') finish = finish.substr(0, paren);
  return finish;
}

double variantFactor(std::string_view variant) {
  // Rough shape of real Doppler prices: Phase 2 and 4 carry a premium over 1 and 3, the
  // gems several times a phase.
  static constexpr std::pair<std::string_view, double> kFactors[] = {
      {"Phase 1", 1.00}, {"Phase 2", 1.12}, {"Phase 3", 0.97},    {"Phase 4", 1.06},
      {"Ruby", 4.5},     {"Sapphire", 5.2}, {"Black Pearl", 3.1}, {"Emerald", 5.6}};
  for (const auto& [name, factor] : kFactors) {
    if (name == variant) return factor;
  }
  return 1.0;
}

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
  if (config.get("coverage")) settings.coverage = probabilityKey(config, "coverage", 1.0, false);
  settings.price_offset_percent = rangeKey(config, "price_offset_percent", 0.0, -90.0, 900.0);
  settings.dispersion_percent = rangeKey(config, "dispersion_percent", 0.0, 0.0, 50.0);
  settings.outlier_probability = probabilityKey(config, "outlier_probability", 0.0, true);
  if (const auto lag = config.get("lag_seconds")) {
    std::int64_t seconds = 0;
    if (!parseInt64(trim(*lag), seconds) || seconds < 0 || seconds > kMaxLagSeconds) {
      throw std::runtime_error("lag_seconds must be an integer in [0, " +
                               std::to_string(kMaxLagSeconds) + "]");
    }
    settings.lag_seconds = seconds;
  }
  if (const auto outage = config.get("outage_after_polls")) {
    std::int64_t polls = 0;
    if (!parseInt64(trim(*outage), polls) || polls < 0) {
      throw std::runtime_error("outage_after_polls must be a non-negative integer");
    }
    settings.outage_after_polls = polls;
  }
  if (const auto variants = config.get("variants")) {
    const auto text = trim(*variants);
    if (text != "true" && text != "false") {
      throw std::runtime_error("variants must be true or false");
    }
    settings.variants = text == "true";
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
  if (settings_.dispersion_percent > 0) {
    const double sigma = settings_.dispersion_percent / 100.0;
    const std::string instance = host_.instanceName();
    for (auto& item : items_) {
      item.quote_factor =
          std::exp(sigma * dispersionNormal(instance, item.name) - 0.5 * sigma * sigma);
    }
  }
  index_.reserve(items_.size());
  for (std::size_t i = 0; i < items_.size(); ++i) {
    index_.emplace(items_[i].name, i);
    if (!settings_.coverage) continue;
    const bool phased = settings_.variants && sdk::variantFinish(finishOf(items_[i].name));
    if (phased || coverageRank(items_[i].name) < *settings_.coverage) covered_.push_back(i);
  }
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

std::vector<std::size_t> SimulatedSource::rowsOfPoll() {
  if (settings_.coverage) {
    // A market's export lists every item it lists on every poll, however few moved, so
    // that none of them looks stale; the items someone holds come too (their valuation).
    std::vector<std::size_t> rows = covered_;
    const std::size_t listed = rows.size();
    for (const std::int64_t id : host_.catalog().heldItemIds()) {
      const auto item = host_.catalog().findById(id);
      if (!item) continue;
      const auto at = index_.find(item->market_hash_name);
      if (at == index_.end()) continue;
      if (!std::binary_search(rows.begin(), rows.begin() + static_cast<std::ptrdiff_t>(listed),
                              at->second)) {
        rows.push_back(at->second);
      }
    }
    std::sort(rows.begin() + static_cast<std::ptrdiff_t>(listed), rows.end());
    rows.erase(std::unique(rows.begin() + static_cast<std::ptrdiff_t>(listed), rows.end()),
               rows.end());
    return rows;
  }
  const std::size_t n = items_.size();
  auto count = static_cast<std::size_t>(std::llround(settings_.fraction * static_cast<double>(n)));
  count = std::clamp<std::size_t>(count, 1, n);
  // Partial Fisher-Yates: the first `count` entries of order_ become a uniform sample.
  for (std::size_t i = 0; i < count; ++i) {
    const std::size_t j = i + static_cast<std::size_t>(next() % (n - i));
    std::swap(order_[i], order_[j]);
  }
  return {order_.begin(), order_.begin() + static_cast<std::ptrdiff_t>(count)};
}

std::int64_t SimulatedSource::quoted(const Item& item, double factor) {
  double price =
      item.price * factor * item.quote_factor * (1.0 + settings_.price_offset_percent / 100.0);
  if (settings_.outlier_probability > 0 && uniform() < settings_.outlier_probability) {
    // A mistyped listing: one row, this poll only; the walk itself is not disturbed.
    price = uniform() < 0.5 ? price * kOutlierFactor : price / kOutlierFactor;
  }
  return std::clamp<std::int64_t>(std::llround(price), 1,
                                  static_cast<std::int64_t>(kMaxPriceCents));
}

void SimulatedSource::report(const Item& item, std::int64_t observed_at, sdk::PollReport& out) {
  const std::int64_t max_volume = item.price < 100 ? 40 : item.price < 10000 ? 12 : 3;
  auto row = [&](std::string_view variant, double factor) {
    sdk::VariantQuote quote;
    quote.market_hash_name = item.name;
    quote.variant = std::string(variant);
    quote.price.form = sdk::QuotedPrice::Form::kCents;
    quote.price.cents = quoted(item, factor);
    quote.volume = 1 + static_cast<std::int64_t>(next() % static_cast<std::uint64_t>(max_volume));
    quote.observed_at = observed_at;
    out.quotes.push_back(std::move(quote));
  };
  const sdk::VariantFinish* finish =
      settings_.variants ? sdk::variantFinish(finishOf(item.name)) : nullptr;
  if (finish == nullptr) {
    row({}, 1.0);
    return;
  }
  for (std::size_t v = 0; v < finish->count; ++v) {
    row(finish->variants[v], variantFactor(finish->variants[v]));
  }
}

sdk::PollReport SimulatedSource::poll() {
  sdk::PollReport result;
  if (settings_.outage_after_polls && answered_polls_ >= *settings_.outage_after_polls) {
    result.status = sdk::Status(sdk::Status::Code::kUnavailable,
                                "simulated outage: the market stopped answering after " +
                                    std::to_string(answered_polls_) + " poll(s)");
    return result;
  }
  ++answered_polls_;
  const std::int64_t now_ms = host_.clock().nowUnixMillis();
  const std::int64_t observed_at = now_ms / 1000 - settings_.lag_seconds;
  const std::vector<std::size_t> rows = rowsOfPoll();
  std::size_t unknown = 0;
  result.quotes.reserve(rows.size());
  for (const std::size_t index : rows) {
    Item& item = items_[index];
    if (!host_.catalog().findByName(item.name)) {
      ++unknown;
      continue;
    }
    // Without coverage every sampled item moves; with it, `fraction` of the listed ones.
    if (!settings_.coverage || uniform() < settings_.fraction) step(item, now_ms);
    report(item, observed_at, result);
  }
  result.rows_read = static_cast<std::int64_t>(result.quotes.size());
  host_.logger().debug("simulated " + std::to_string(result.quotes.size()) + " quotes, " +
                       std::to_string(unknown) + " listed items not in the catalogue");
  return result;
}

}  // namespace skinpulse::plugins::simulated
