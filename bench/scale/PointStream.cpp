#include "PointStream.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace skinpulse::bench {
namespace {

// The shipped instances (etc/skinpulse/conf.d) and their intervals. Coverage is the share
// of the catalogue a source lists: Steam lists everything, the smaller markets part of it.
std::vector<SourceShape> shippedSources() {
  using sdk::PriceKind;
  return {
      {"steam_market", 60, 1.0, PriceKind::kAsk},
      {"skinport", 300, 0.7, PriceKind::kAsk},
      {"csfloat", 600, 0.5, PriceKind::kAsk},
      {"waxpeer", 600, 0.5, PriceKind::kAsk},
      {"bitskins", 600, 0.4, PriceKind::kAsk},
      {"market_csgo", 600, 0.6, PriceKind::kAsk},
      {"csdeals", 900, 0.4, PriceKind::kAsk},
      {"white_market", 1800, 0.3, PriceKind::kAsk},
      {"buff163-bid-via-csgotrader", 3600, 0.6, PriceKind::kBid},
      {"lisskins", 3600, 0.5, PriceKind::kAsk},
  };
}

double unit(std::uint64_t h) { return static_cast<double>(h >> 11) * 0x1.0p-53; }  // [0,1)

std::int64_t floorDiv(std::int64_t a, std::int64_t b) {
  return a / b - ((a % b != 0) && ((a < 0) != (b < 0)) ? 1 : 0);
}

}  // namespace

std::uint64_t mix(std::uint64_t a, std::uint64_t b, std::uint64_t c) {
  std::uint64_t x = a * 0x9E3779B97F4A7C15ull ^
                    (b + 0x632BE59BD9B4E019ull) * 0xBF58476D1CE4E5B9ull ^
                    (c + 0x8CB92BA72F3D8DD7ull) * 0x94D049BB133111EBull;
  x ^= x >> 30;
  x *= 0xBF58476D1CE4E5B9ull;
  x ^= x >> 27;
  x *= 0x94D049BB133111EBull;
  x ^= x >> 31;
  return x;
}

PointStream::PointStream(std::vector<std::int64_t> item_ids, std::size_t target_points,
                         std::int64_t now, int history_days)
    : sources_(shippedSources()),
      items_(std::move(item_ids)),
      now_(now),
      history_days_(history_days) {
  if (items_.empty()) throw std::invalid_argument("PointStream: no items");
  if (target_points == 0) throw std::invalid_argument("PointStream: no points");
  // Which items each source lists: a fixed draw per (item, source).
  lists_.assign(sources_.size(), std::vector<bool>(items_.size(), false));
  listed_.assign(sources_.size(), 0);
  for (std::size_t s = 0; s < sources_.size(); ++s) {
    for (std::size_t i = 0; i < items_.size(); ++i) {
      const bool listed =
          sources_[s].coverage >= 1.0 ||
          unit(mix(static_cast<std::uint64_t>(items_[i]), s, 1)) < sources_[s].coverage;
      lists_[s][i] = listed;
      listed_[s] += listed ? 1 : 0;
    }
  }
  // One stretch for every source keeps the shipped ratios between them: points in the
  // span at the shipped intervals, divided by the points wanted.
  const double span = static_cast<double>(history_days_) * 86400.0;
  double shipped_points = 0;
  for (std::size_t s = 0; s < sources_.size(); ++s)
    shipped_points +=
        static_cast<double>(listed_[s]) * span / static_cast<double>(sources_[s].shipped_interval);
  stretch_ = std::max(1.0, shipped_points / static_cast<double>(target_points));
  for (std::size_t s = 0; s < sources_.size(); ++s) {
    const auto interval = std::max<std::int64_t>(
        1, std::llround(static_cast<double>(sources_[s].shipped_interval) * stretch_));
    intervals_.push_back(interval);
    phases_.push_back(static_cast<std::int64_t>(mix(s, 2) % static_cast<std::uint64_t>(interval)));
  }
}

bool PointStream::lists(std::size_t item, std::size_t source) const { return lists_[source][item]; }

std::vector<Poll> PointStream::pollsOf(std::size_t source, std::int64_t from,
                                       std::int64_t to) const {
  std::vector<Poll> out;
  const std::int64_t iv = intervals_[source], phase = phases_[source];
  for (std::int64_t k = floorDiv(from - phase + iv - 1, iv);; ++k) {
    const std::int64_t t = phase + k * iv;
    if (t >= to) break;
    if (t >= from) out.push_back(Poll{source, t, k});
  }
  return out;
}

std::vector<Poll> PointStream::polls(std::int64_t from, std::int64_t to) const {
  std::vector<Poll> out;
  for (std::size_t s = 0; s < sources_.size(); ++s) {
    auto mine = pollsOf(s, from, to);
    out.insert(out.end(), mine.begin(), mine.end());
  }
  std::sort(out.begin(), out.end(), [](const Poll& a, const Poll& b) {
    return a.time != b.time ? a.time < b.time : a.source < b.source;
  });
  return out;
}

store::PricePoint PointStream::point(const Poll& poll, std::size_t item) const {
  const auto id = static_cast<std::uint64_t>(items_[item]);
  const SourceShape& shape = sources_[poll.source];
  // Base price log-uniform over 3 cents .. $2,000 (the catalogue's spread), a slow wave of
  // ±15 % with a period of 20-60 days per item, a few per cent of noise per poll, and a
  // source's own level (a bid sits under the asks).
  const double base = std::exp(std::log(3.0) + unit(mix(id, 3)) * std::log(200000.0 / 3.0));
  const double period = 86400.0 * (20.0 + 40.0 * unit(mix(id, 4)));
  const double wave = 1.0 + 0.15 * std::sin(2.0 * M_PI * static_cast<double>(poll.time) / period +
                                            6.283 * unit(mix(id, 5)));
  const std::uint64_t h = mix(id, poll.source + 16, static_cast<std::uint64_t>(poll.index));
  const double noise = 1.0 + 0.03 * (unit(h) - 0.5);
  const double level =
      (shape.kind == sdk::PriceKind::kBid ? 0.85 : 0.95) + 0.1 * unit(mix(id, poll.source + 16, 6));
  store::PricePoint p;
  p.item_id = items_[item];
  p.source = shape.name;
  p.time = poll.time;
  p.price = std::max<std::int64_t>(1, std::llround(base * wave * noise * level));
  p.volume = static_cast<std::int64_t>((h >> 8) % 20);
  p.kind = shape.kind;
  if (shape.kind == sdk::PriceKind::kAsk) p.listings = static_cast<std::int64_t>((h >> 20) % 500);
  // One point in a thousand is a fat-finger listing the cycle flagged (docs/api.md §12):
  // stored, but never part of a rollup.
  if ((h >> 40) % 1000 == 0) {
    p.price *= 4;
    p.outlier = true;
  }
  return p;
}

void PointStream::append(const Poll& poll, std::vector<store::PricePoint>& out) const {
  const auto& listed = lists_[poll.source];
  for (std::size_t i = 0; i < items_.size(); ++i)
    if (listed[i]) out.push_back(point(poll, i));
}

std::size_t PointStream::count(std::int64_t from, std::int64_t to) const {
  std::size_t n = 0;
  for (std::size_t s = 0; s < sources_.size(); ++s) n += pollsOf(s, from, to).size() * listed_[s];
  return n;
}

}  // namespace skinpulse::bench
