#include "metrics/MetricsEngine.hpp"

#include "common/Json.hpp"
#include "common/Log.hpp"
#include "common/Time.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <thread>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace skinpulse::metrics {
namespace {

constexpr std::size_t kRebuildChunk = 50000;

void appendNumber(std::string& out, double value) {
  if (!std::isfinite(value)) {
    out += "null";
    return;
  }
  char buffer[32];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
  out.append(buffer, result.ptr);
}

void appendInteger(std::string& out, std::int64_t value) {
  char buffer[24];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
  out.append(buffer, result.ptr);
}

// `"key":`
void appendKey(std::string& out, std::string_view key) {
  out += '"';
  out += key;
  out += "\":";
}

// The metric fields, groups nested, each preceded by a comma.
void appendFields(std::string& out, const std::vector<MetricSet::Field>& fields,
                  const std::vector<double>& values) {
  const std::string* group = nullptr;  // the nested object open, if any
  for (std::size_t i = 0; i < fields.size(); ++i) {
    const auto& field = fields[i];
    if (group != nullptr && field.group == *group) {
      out += ',';
    } else {
      if (group != nullptr) out += '}';
      group = nullptr;
      out += ',';
      if (!field.group.empty()) {
        appendKey(out, field.group);
        out += '{';
        group = &field.group;
      }
    }
    appendKey(out, field.key);
    appendNumber(out, values[i]);
  }
  if (group != nullptr) out += '}';
}

// Everything after `{"item_id":N` of a Volatility metrics object.
void appendTail(std::string& out, std::string_view window, const std::string* source,
                std::int64_t samples, const std::vector<MetricSet::Field>& fields,
                const std::vector<double>& values, std::string_view computed_at) {
  out += ",\"window\":\"";
  out += window;
  out += "\",\"source\":";
  if (source != nullptr) {
    common::appendJsonString(out, *source);
  } else {
    out += "null";
  }
  out += ",\"samples\":";
  appendInteger(out, samples);
  appendFields(out, fields, values);
  out += ",\"computed_at\":\"";
  out += computed_at;
  out += "\"}";
}

struct Candidate {
  std::int64_t item_id;
  double score;
  double percent_change;
  std::uint32_t source;
};

bool moreVolatile(const Candidate& a, const Candidate& b) {
  if (a.score != b.score) return a.score > b.score;
  return a.item_id < b.item_id;
}

double finiteOrZero(double value) { return std::isfinite(value) ? value : 0.0; }

}  // namespace

struct MetricsEngine::Pass {
  std::int64_t now = 0;
  const std::vector<std::string>* order = nullptr;  ///< the reference order, by name
  const std::vector<std::size_t>* rank = nullptr;   ///< by source id
  std::vector<std::pair<std::int64_t, std::vector<Series>*>> items;  ///< by id
  std::string computed_at;
  std::vector<double> zeros;
  std::shared_ptr<const catalog::CatalogSnapshot> catalog;
};

MetricsEngine::MetricsEngine(const catalog::Catalog& catalog, const prices::LatestPrices& latest,
                             MetricSet metrics, const prices::PricePolicy& policy)
    : catalog_(catalog),
      latest_(latest),
      metrics_(std::move(metrics)),
      policy_(policy),
      score_field_(metrics_.find("coefficient_of_variation")),
      percent_change_field_(metrics_.find("percent_change")),
      upper_field_(metrics_.find("bollinger.upper")),
      lower_field_(metrics_.find("bollinger.lower")) {
  if (!score_field_ || !percent_change_field_) {
    log::main().error(
        "metrics: no coefficient_of_variation or percent_change metric; rankings stay empty");
  }
  std::array<MetricsSnapshot::Window, kWindowCount> empty;
  snapshot_ = std::make_shared<const MetricsSnapshot>(0, std::move(empty));
}

MetricsEngine::~MetricsEngine() { stopRefresh(); }

std::uint32_t MetricsEngine::sourceId(const std::string& name) {
  const auto it = source_ids_.find(name);
  if (it != source_ids_.end()) return it->second;
  const auto id = static_cast<std::uint32_t>(source_names_.size());
  source_names_.push_back(name);
  source_ids_.emplace(name, id);
  return id;
}

void MetricsEngine::fold(const store::PricePoint& point, std::int64_t now) {
  if (point.time < 0 || point.price < 0 || point.price > BucketLevel::kMaxPrice) return;
  if (policy_.drops(point)) return;
  const std::uint32_t source = sourceId(point.source);
  auto& series = items_[point.item_id];
  auto it = std::find_if(series.begin(), series.end(),
                         [&](const Series& s) { return s.source == source; });
  if (it == series.end()) {
    series.emplace_back();
    it = series.end() - 1;
    it->source = source;
  }
  if (point.time <= it->newest) return;
  it->newest = point.time;
  // Each window moves to `now` before the point is added: a point already outside it
  // only competes for p_ref, so a rebuild does not push a week of points through the 1h
  // level's buckets (encoding each bucket and decoding it again when it leaves).
  for (std::size_t w = 0; w < kWindowCount; ++w) {
    it->levels[w].advance(kWindows[w], now);
    it->levels[w].add(kWindows[w], point.time, point.price);
  }
}

void MetricsEngine::apply(const std::vector<store::PricePoint>& points, std::int64_t now) {
  std::lock_guard lock(state_mutex_);
  for (const auto& point : points) fold(point, now);
}

void MetricsEngine::rebuild(store::PriceStore& prices, std::int64_t now) {
  const auto started = std::chrono::steady_clock::now();
  std::size_t read = 0;
  {
    std::lock_guard lock(state_mutex_);
    store_ = &prices;
    items_.clear();
    // First each series' newest point from before the history read below: the p_ref of
    // a window whose series did not trade for longer than kHistorySeconds. fold() sees
    // it as older than every window, so it only competes for p_ref.
    const auto references = prices.newestBefore(now - kHistorySeconds + 1);
    read += references.size();
    for (const auto& point : references) fold(point, now);
    prices.scanSince(now - kHistorySeconds, kRebuildChunk,
                     [&](const std::vector<store::PricePoint>& chunk) {
                       read += chunk.size();
                       for (const auto& point : chunk) fold(point, now);
                     });
    dirty_ = false;  // only once the whole history is in
  }
  shrinkToFit();
  recompute(now);
  const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                      std::chrono::steady_clock::now() - started)
                      .count();
  log::main().info(
      "metrics: {} point(s) of {} item(s) loaded from the last {} days in {} ms; the series take "
      "{} MiB",
      read, items_.size(), kHistorySeconds / 86400, ms, seriesBytes() >> 20);
}

void MetricsEngine::shrinkToFit() {
  std::lock_guard lock(state_mutex_);
  for (auto& [id, series] : items_) {
    series.shrink_to_fit();
    for (auto& s : series) {
      for (auto& level : s.levels) level.shrink();
    }
  }
#if defined(__GLIBC__)
  // The buffers grown and moved during the fold leave free chunks all over the heap,
  // which glibc keeps resident; this gives their whole pages back to the system.
  malloc_trim(0);
#endif
}

std::size_t MetricsEngine::seriesBytes() const {
  std::lock_guard lock(state_mutex_);
  // An unordered_map node: the next pointer, then the key and value.
  constexpr std::size_t kNode =
      sizeof(void*) + sizeof(std::pair<const std::int64_t, std::vector<Series>>);
  std::size_t bytes = items_.bucket_count() * sizeof(void*) + items_.size() * kNode;
  for (const auto& [id, series] : items_) {
    bytes += series.capacity() * sizeof(Series);
    for (const auto& s : series) {
      for (const auto& level : s.levels) bytes += level.heapBytes();
    }
  }
  return bytes;
}

void MetricsEngine::onReload() {
  store::PriceStore* store = nullptr;
  {
    std::lock_guard lock(state_mutex_);
    store = store_;
  }
  if (store != nullptr) rebuild(*store, time::nowSeconds());
}

void MetricsEngine::onCycle(const ingest::CycleUpdate& update) {
  rebuildIfDirty(update.time);
  apply(update.points, update.time);
  recompute(update.time);
}

void MetricsEngine::recompute(std::int64_t now) {
  std::lock_guard lock(state_mutex_);
  publish(computeLocked(now, latest_.sourceNames()));
}

// The cycle's metrics, computed while its points are being stored: published by commit()
// once they are; if the store fails, the series hold points that never were stored and
// are rebuilt from the store before anything is computed from them again.
class MetricsEngine::Prepared final : public ingest::PreparedCycle {
 public:
  Prepared(MetricsEngine& engine, std::shared_ptr<const MetricsSnapshot> snapshot)
      : engine_(engine), snapshot_(std::move(snapshot)) {}
  ~Prepared() override {
    if (committed_) return;
    std::lock_guard lock(engine_.state_mutex_);
    engine_.pending_ = false;
    engine_.dirty_ = true;
  }
  void commit() override {
    std::lock_guard lock(engine_.state_mutex_);
    engine_.publish(std::move(snapshot_));
    engine_.pending_ = false;
    committed_ = true;
  }

 private:
  MetricsEngine& engine_;
  std::shared_ptr<const MetricsSnapshot> snapshot_;
  bool committed_ = false;
};

std::unique_ptr<ingest::PreparedCycle> MetricsEngine::prepareCycle(
    const ingest::CycleUpdate& update, const std::vector<std::string>& source_names) {
  rebuildIfDirty(update.time);
  std::lock_guard lock(state_mutex_);
  // From the first fold until commit or abandon, the refresher publishes nothing: the
  // series hold points not yet stored.
  pending_ = true;
  try {
    for (const auto& point : update.points) fold(point, update.time);
    return std::make_unique<Prepared>(*this, computeLocked(update.time, source_names));
  } catch (...) {
    pending_ = false;
    dirty_ = true;
    throw;
  }
}

void MetricsEngine::rebuildIfDirty(std::int64_t now) {
  store::PriceStore* store = nullptr;
  {
    std::lock_guard lock(state_mutex_);
    if (!dirty_) return;
    store = store_;
    if (store == nullptr) {
      // Never loaded from a store (tests, benchmarks): the series restart empty.
      items_.clear();
      dirty_ = false;
      return;
    }
  }
  log::main().warn("metrics: a cycle was not stored: rebuilding the series from the store");
  rebuild(*store, now);
}

std::shared_ptr<const MetricsSnapshot> MetricsEngine::computeLocked(
    std::int64_t now, const std::vector<std::string>& known_sources) {
  const auto order = policy_.referenceOrder(known_sources);
  // Reference rank of each source: its place in `order`; sources outside it rank after,
  // alphabetically, and can never be the reference (they only break "most points" ties).
  std::vector<std::size_t> rank(source_names_.size());
  {
    std::vector<std::uint32_t> outside;
    for (std::uint32_t id = 0; id < source_names_.size(); ++id) {
      const auto at = std::find(order.begin(), order.end(), source_names_[id]);
      if (at != order.end()) {
        rank[id] = static_cast<std::size_t>(at - order.begin());
      } else {
        outside.push_back(id);
      }
    }
    std::sort(outside.begin(), outside.end(), [&](std::uint32_t a, std::uint32_t b) {
      return source_names_[a] < source_names_[b];
    });
    for (std::size_t i = 0; i < outside.size(); ++i) rank[outside[i]] = order.size() + i;
  }

  // Slide every window; forget series with nothing left in the widest one.
  Pass pass;
  pass.now = now;
  pass.order = &order;
  pass.rank = &rank;
  pass.items.reserve(items_.size());
  for (auto it = items_.begin(); it != items_.end();) {
    auto& series = it->second;
    // Series with nothing left in the widest window (as of the last pass) are forgotten.
    std::erase_if(series, [](const Series& s) { return s.levels.back().count() == 0; });
    if (series.empty()) {
      it = items_.erase(it);
      continue;
    }
    std::sort(series.begin(), series.end(),
              [&](const Series& a, const Series& b) { return rank[a.source] < rank[b.source]; });
    pass.items.emplace_back(it->first, &series);
    ++it;
  }
  std::sort(pass.items.begin(), pass.items.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  pass.computed_at = time::formatIso8601(now);
  pass.zeros.assign(metrics_.fields().size(), 0.0);
  pass.catalog = catalog_.snapshot();

  // The windows are independent: one thread each, each sliding and reading only its own
  // level of every series (metrics are thread-safe by the SDK's contract).
  std::array<MetricsSnapshot::Window, kWindowCount> windows;
  std::vector<std::thread> helpers;
  for (std::size_t w = 1; w < kWindowCount; ++w) {
    helpers.emplace_back([&, w] { computeWindow(pass, w, windows[w]); });
  }
  computeWindow(pass, 0, windows[0]);
  for (auto& helper : helpers) helper.join();
  last_compute_ = now;
  return std::make_shared<const MetricsSnapshot>(now, std::move(windows));
}

void MetricsEngine::computeWindow(const Pass& pass, std::size_t w, MetricsSnapshot::Window& out) {
  const WindowShape& shape = kWindows[w];
  const std::int64_t now = pass.now;
  const auto& rank = *pass.rank;
  const auto& order = *pass.order;
  std::vector<double> values;
  out.objects.reserve(last_bytes_[w] + last_bytes_[w] / 16 + 4096);
  out.slots.reserve(pass.items.size());
  out.signals.reserve(pass.items.size());
  std::vector<Candidate> candidates;
  for (const auto& [id, item_series] : pass.items) {
    auto& series = *item_series;
    for (auto& s : series) s.levels[w].advance(shape, now);
    const Series* chosen = nullptr;
    sdk::WindowStats stats;
    for (const auto& s : series) {
      if (rank[s.source] >= order.size() || s.levels[w].count() < 2) continue;
      stats = s.levels[w].stats(shape, now);
      if (stats.n >= 2) {
        chosen = &s;
        break;
      }
    }
    const std::string* source = nullptr;
    std::int64_t samples = 0;
    const std::vector<double>* shown = &pass.zeros;
    MetricsSnapshot::Signal signal;
    if (chosen != nullptr) {
      metrics_.evaluate(stats, values);
      const auto field = [&](const std::optional<std::size_t>& index) {
        return index ? finiteOrZero(values[*index]) : 0.0;
      };
      signal = MetricsSnapshot::Signal{field(percent_change_field_), field(upper_field_),
                                       field(lower_field_), stats.last_price, true};
      shown = &values;
      source = &source_names_[chosen->source];
      samples = stats.n;
      if (score_field_ && percent_change_field_) {
        candidates.push_back(Candidate{id, finiteOrZero(values[*score_field_] * 100.0),
                                       values[*percent_change_field_], chosen->source});
      }
    } else {
      // No reference: the source with the most points (0 or 1), ties in reference order.
      for (const auto& s : series) {
        const std::int64_t n = s.levels[w].count();
        if (n > samples) {
          samples = n;
          source = &source_names_[s.source];
        }
      }
    }
    const auto offset = static_cast<std::uint32_t>(out.objects.size());
    out.objects += "{\"item_id\":";
    appendInteger(out.objects, id);
    appendTail(out.objects, shape.name, source, samples, metrics_.fields(), *shown,
               pass.computed_at);
    out.slots.push_back(MetricsSnapshot::Window::Slot{
        id, offset, static_cast<std::uint32_t>(out.objects.size() - offset)});
    out.signals.push_back(signal);
  }
  last_bytes_[w] = out.objects.size();
  appendTail(out.empty_tail, shape.name, nullptr, 0, metrics_.fields(), pass.zeros,
             pass.computed_at);

  // Top-N only: the catalogue is never sorted whole.
  const std::size_t top = std::min(candidates.size(), MetricsSnapshot::kMaxRanking);
  std::partial_sort(candidates.begin(), candidates.begin() + static_cast<std::ptrdiff_t>(top),
                    candidates.end(), moreVolatile);
  candidates.resize(top);
  for (const auto& c : candidates) {
    const auto* item = pass.catalog->findById(c.item_id);
    // A flagged newest price counts at its source's trusted price, as in valuation.
    const auto prices = policy_.trustedLatest(latest_.of(c.item_id));
    const auto current = prices::currentPrice(prices, order, now);
    std::string& r = out.ranking;
    if (!out.ranking_ends.empty()) r += ',';
    r += "{\"item_id\":";
    appendInteger(r, c.item_id);
    r += ",\"market_hash_name\":";
    common::appendJsonString(r, item != nullptr ? item->record.market_hash_name : "");
    r += ",\"volatility_score\":";
    appendNumber(r, c.score);
    r += ",\"percent_change\":";
    appendNumber(r, c.percent_change);
    r += ",\"current_price\":";
    if (current.price) {
      appendInteger(r, *current.price);
    } else {
      r += "null";
    }
    r += ",\"source\":";
    common::appendJsonString(r, source_names_[c.source]);
    r += '}';
    out.ranking_ends.push_back(r.size());
    out.ranked.push_back(MetricsSnapshot::Ranked{c.item_id, c.score, c.percent_change});
  }
}

void MetricsEngine::publish(std::shared_ptr<const MetricsSnapshot> next) {
  std::shared_ptr<const MetricsSnapshot> old;
  {
    std::lock_guard lock(snapshot_mutex_);
    old = std::move(snapshot_);
    snapshot_ = std::move(next);
  }
  // `old` is freed here, outside the lock, unless a reader still holds it.
}

std::shared_ptr<const MetricsSnapshot> MetricsEngine::snapshot() const {
  std::lock_guard lock(snapshot_mutex_);
  return snapshot_;
}

void MetricsEngine::startRefresh(std::chrono::seconds period) {
  stopRefresh();
  const auto every = std::chrono::duration_cast<std::chrono::milliseconds>(period);
  refresh_ =
      std::make_unique<common::PeriodicTask>("metrics refresh", every, every, [this, period] {
        const std::int64_t now = time::nowSeconds();
        rebuildIfDirty(now);
        std::lock_guard state(state_mutex_);
        // A cycle being stored has its points in the series already: not published
        // before its commit.
        if (pending_ || now - last_compute_ < period.count()) return;
        publish(computeLocked(now, latest_.sourceNames()));
      });
  refresh_->start();
}

void MetricsEngine::stopRefresh() {
  if (refresh_) refresh_->stop();
  refresh_.reset();
}

}  // namespace skinpulse::metrics
