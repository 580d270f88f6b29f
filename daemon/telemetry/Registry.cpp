#include "telemetry/Registry.hpp"

#include <stdexcept>

namespace skinpulse::telemetry {
namespace {

// Separates label values in a child's map key; cannot occur in a label value we accept.
constexpr char kSeparator = '\x1f';

void renderValue(std::string& out, const std::string& name, const std::vector<std::string>& names,
                 const std::vector<std::string>& values, const Counter& counter) {
  appendSample(out, name, names, values, {}, counter.value());
}

void renderValue(std::string& out, const std::string& name, const std::vector<std::string>& names,
                 const std::vector<std::string>& values, const Gauge& gauge) {
  appendSample(out, name, names, values, {}, gauge.value());
}

void renderValue(std::string& out, const std::string& name, const std::vector<std::string>& names,
                 const std::vector<std::string>& values, const Histogram& histogram) {
  const auto snapshot = histogram.snapshot();
  const std::string bucket = name + "_bucket";
  std::string le;
  for (std::size_t i = 0; i < histogram.bounds().size(); ++i) {
    le.clear();
    appendNumber(le, histogram.bounds()[i]);
    appendSample(out, bucket, names, values, le, snapshot.cumulative[i]);
  }
  appendSample(out, bucket, names, values, "+Inf", snapshot.cumulative.back());
  appendSample(out, name + "_sum", names, values, {}, snapshot.sum);
  appendSample(out, name + "_count", names, values, {}, snapshot.cumulative.back());
}

}  // namespace

FamilyBase::FamilyBase(std::string name, std::string help, std::vector<std::string> label_names,
                       Type type)
    : name_(std::move(name)),
      help_(std::move(help)),
      label_names_(std::move(label_names)),
      type_(type) {
  if (!validMetricName(name_)) throw std::invalid_argument("invalid metric name: " + name_);
  for (const auto& label : label_names_) {
    if (!validLabelName(label)) {
      throw std::invalid_argument("invalid label name '" + label + "' of " + name_);
    }
  }
}

std::string FamilyBase::keyOf(const std::string_view* values, std::size_t count) const {
  if (count != label_names_.size()) {
    throw std::invalid_argument(name_ + " takes " + std::to_string(label_names_.size()) +
                                " label value(s), not " + std::to_string(count));
  }
  std::string key;
  for (std::size_t i = 0; i < count; ++i) {
    if (i > 0) key += kSeparator;
    key += values[i];
  }
  return key;
}

template <class Metric>
void Family<Metric>::render(std::string& out) const {
  std::shared_lock lock(mutex_);
  if (children_.empty()) return;
  appendHeader(out, name(), help(), type());
  for (const auto& [key, child] : children_) {
    renderValue(out, name(), labelNames(), child.values, *child.metric);
  }
}

template class Family<Counter>;
template class Family<Gauge>;
template class Family<Histogram>;

template <class Metric>
Family<Metric>& Registry::declare(const std::string& name, const std::string& help,
                                  std::vector<std::string> label_names, Type type,
                                  typename Family<Metric>::Make make) {
  std::lock_guard lock(mutex_);
  for (const auto& family : families_) {
    if (family->name() != name) continue;
    auto* same = dynamic_cast<Family<Metric>*>(family.get());
    if (same == nullptr || family->type() != type || family->labelNames() != label_names) {
      throw std::invalid_argument("metric " + name + " is already declared differently");
    }
    return *same;
  }
  auto family =
      std::make_unique<Family<Metric>>(name, help, std::move(label_names), type, std::move(make));
  auto& ref = *family;
  families_.push_back(std::move(family));
  return ref;
}

CounterFamily& Registry::counter(const std::string& name, const std::string& help,
                                 std::vector<std::string> label_names) {
  return declare<Counter>(name, help, std::move(label_names), Type::kCounter,
                          [] { return std::make_unique<Counter>(); });
}

GaugeFamily& Registry::gauge(const std::string& name, const std::string& help,
                             std::vector<std::string> label_names) {
  return declare<Gauge>(name, help, std::move(label_names), Type::kGauge,
                        [] { return std::make_unique<Gauge>(); });
}

HistogramFamily& Registry::histogram(const std::string& name, const std::string& help,
                                     std::vector<std::string> label_names,
                                     std::vector<double> bounds) {
  Histogram probe(bounds);  // throws on bad bounds here, not at the first observation
  (void)probe;
  return declare<Histogram>(name, help, std::move(label_names), Type::kHistogram,
                            [bounds] { return std::make_unique<Histogram>(bounds); });
}

Registry::CollectorHandle::CollectorHandle(CollectorHandle&& other) noexcept
    : registry_(other.registry_), id_(other.id_) {
  other.registry_ = nullptr;
}

Registry::CollectorHandle& Registry::CollectorHandle::operator=(CollectorHandle&& other) noexcept {
  if (this != &other) {
    if (registry_ != nullptr) registry_->removeCollector(id_);
    registry_ = other.registry_;
    id_ = other.id_;
    other.registry_ = nullptr;
  }
  return *this;
}

Registry::CollectorHandle::~CollectorHandle() {
  if (registry_ != nullptr) registry_->removeCollector(id_);
}

Registry::CollectorHandle Registry::addCollector(Collector collector) {
  std::lock_guard lock(mutex_);
  const std::uint64_t id = next_collector_++;
  collectors_.emplace(id, std::move(collector));
  return CollectorHandle(this, id);
}

void Registry::removeCollector(std::uint64_t id) {
  // Waits for a scrape in progress: the collector's captures die after this returns.
  std::lock_guard lock(mutex_);
  collectors_.erase(id);
}

std::string Registry::render() const {
  std::string out;
  render(out);
  return out;
}

void Registry::render(std::string& out) const {
  std::lock_guard lock(mutex_);
  for (const auto& family : families_) family->render(out);
  std::vector<CollectedFamily> collected;
  for (const auto& [id, collector] : collectors_) collector(collected);
  renderCollected(out, collected);
}

void renderCollected(std::string& out, const std::vector<CollectedFamily>& families) {
  for (const auto& family : families) {
    if (family.samples.empty()) continue;
    appendHeader(out, family.name, family.help, family.type);
    for (const auto& sample : family.samples) {
      appendSample(out, family.name, family.label_names, sample.values, {}, sample.value);
    }
  }
}

Registry& Registry::global() {
  static Registry registry;
  return registry;
}

}  // namespace skinpulse::telemetry
