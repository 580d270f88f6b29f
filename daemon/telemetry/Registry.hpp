#pragma once

// Registry: the metric families of the process and the scrape-time collectors, rendered
// as one Prometheus text-format page (GET /metrics on the admin listener, ADR 0018).
//
// A family has a name, a help text and a FIXED list of label names, declared once; its
// children (one per set of label values) are made on first use and live as long as the
// registry, so a caller may keep the reference and pay only the atomic add afterwards.
// Label values must come from small, known sets — source instance names, route
// templates, status codes, reasons — and never from item names or request paths: every
// distinct value is a series Prometheus keeps forever.
//
// Collectors are for values that already live elsewhere (the process' /proc numbers, a
// scheduler's state): they are asked at scrape time and added to the page.
//
// Thread-safe: families and children may be looked up, updated and rendered from any
// thread. A lookup takes a shared lock (an exclusive one the first time a label set is
// seen); updates are lock-free.

#include "telemetry/Metrics.hpp"
#include "telemetry/TextFormat.hpp"

#include <functional>
#include <initializer_list>
#include <map>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <string>
#include <string_view>
#include <vector>

namespace skinpulse::telemetry {

class FamilyBase {
 public:
  FamilyBase(std::string name, std::string help, std::vector<std::string> label_names, Type type);
  virtual ~FamilyBase() = default;
  FamilyBase(const FamilyBase&) = delete;
  FamilyBase& operator=(const FamilyBase&) = delete;

  const std::string& name() const { return name_; }
  const std::string& help() const { return help_; }
  const std::vector<std::string>& labelNames() const { return label_names_; }
  Type type() const { return type_; }

  /// HELP, TYPE and every child's samples. A family without a child renders nothing
  /// (a labelled family before its first use): Prometheus treats absent and empty alike.
  virtual void render(std::string& out) const = 0;

 protected:
  /// The map key of a label set; throws std::invalid_argument on a wrong count.
  std::string keyOf(const std::string_view* values, std::size_t count) const;

 private:
  std::string name_;
  std::string help_;
  std::vector<std::string> label_names_;
  Type type_;
};

template <class Metric>
class Family final : public FamilyBase {
 public:
  using Make = std::function<std::unique_ptr<Metric>()>;
  Family(std::string name, std::string help, std::vector<std::string> label_names, Type type,
         Make make)
      : FamilyBase(std::move(name), std::move(help), std::move(label_names), type),
        make_(std::move(make)) {}

  /// The child of these label values (in the order of labelNames()), made on first use.
  Metric& labels(std::initializer_list<std::string_view> values) {
    return child(values.begin(), values.size());
  }
  Metric& labels(const std::vector<std::string_view>& values) {
    return child(values.data(), values.size());
  }
  /// The one child of a family without labels.
  Metric& get() { return child(nullptr, 0); }

  void render(std::string& out) const override;

 private:
  struct Child {
    std::vector<std::string> values;
    std::unique_ptr<Metric> metric;
  };
  Metric& child(const std::string_view* values, std::size_t count) {
    const std::string key = keyOf(values, count);
    {
      std::shared_lock lock(mutex_);
      const auto found = children_.find(key);
      if (found != children_.end()) return *found->second.metric;
    }
    std::unique_lock lock(mutex_);
    auto& slot = children_[key];
    if (!slot.metric) {
      slot.values.assign(values, values + count);
      slot.metric = make_();
    }
    return *slot.metric;
  }

  Make make_;
  mutable std::shared_mutex mutex_;
  std::map<std::string, Child, std::less<>> children_;  ///< ordered: a stable page
};

extern template class Family<Counter>;
extern template class Family<Gauge>;
extern template class Family<Histogram>;

using CounterFamily = Family<Counter>;
using GaugeFamily = Family<Gauge>;
using HistogramFamily = Family<Histogram>;

/// A family a collector reports at scrape time.
struct CollectedFamily {
  std::string name;
  std::string help;
  Type type = Type::kGauge;  ///< counters and gauges only
  std::vector<std::string> label_names;
  struct Sample {
    std::vector<std::string> values;
    double value = 0;
  };
  std::vector<Sample> samples;
};

class Registry {
 public:
  Registry() = default;
  Registry(const Registry&) = delete;
  Registry& operator=(const Registry&) = delete;

  /// Declares a family, or returns the one already declared under `name` when its type
  /// and label names are the same (throws std::invalid_argument when they differ, or on
  /// an invalid name). The reference lives as long as the registry.
  CounterFamily& counter(const std::string& name, const std::string& help,
                         std::vector<std::string> label_names = {});
  GaugeFamily& gauge(const std::string& name, const std::string& help,
                     std::vector<std::string> label_names = {});
  HistogramFamily& histogram(const std::string& name, const std::string& help,
                             std::vector<std::string> label_names, std::vector<double> bounds);

  using Collector = std::function<void(std::vector<CollectedFamily>&)>;
  /// Removes its collector when destroyed; must not outlive the registry.
  class CollectorHandle {
   public:
    CollectorHandle() = default;
    CollectorHandle(Registry* registry, std::uint64_t id) : registry_(registry), id_(id) {}
    CollectorHandle(CollectorHandle&& other) noexcept;
    CollectorHandle& operator=(CollectorHandle&& other) noexcept;
    ~CollectorHandle();

   private:
    Registry* registry_ = nullptr;
    std::uint64_t id_ = 0;
  };
  /// `collector` runs on the scraping thread while the handle lives; it must not throw.
  [[nodiscard]] CollectorHandle addCollector(Collector collector);

  /// The whole page, text format 0.0.4: declared families in declaration order, then
  /// what the collectors report.
  std::string render() const;
  void render(std::string& out) const;

  /// The process' registry: every metric of the daemon is declared in it
  /// (telemetry/DaemonMetrics.hpp).
  static Registry& global();

 private:
  template <class Metric>
  Family<Metric>& declare(const std::string& name, const std::string& help,
                          std::vector<std::string> label_names, Type type,
                          typename Family<Metric>::Make make);
  void removeCollector(std::uint64_t id);

  mutable std::mutex mutex_;
  std::vector<std::unique_ptr<FamilyBase>> families_;
  std::map<std::uint64_t, Collector> collectors_;
  std::uint64_t next_collector_ = 1;
};

/// Renders collected families (the collectors' part of a page).
void renderCollected(std::string& out, const std::vector<CollectedFamily>& families);

}  // namespace skinpulse::telemetry
