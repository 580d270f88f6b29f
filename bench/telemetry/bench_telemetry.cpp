// bench_telemetry: how long a full scrape of a large daemon's metrics takes to render
// (issue 21: ≤ 1 ms), beside a reference in the same run: the same samples rendered the
// naive way, with std::ostringstream and operator<< (what a hand-rolled exporter does).
//
// The registry is sized like a busy deployment: 30 source instances (polls by 5 results,
// points, 3 rejection reasons, outliers, last success, interval), 60 route templates ×
// 4 statuses with a latency histogram per route, the cycle and its 8 stages, the store
// and shared-store families, imports, deliveries. Prints one JSON line.
//
//   bench_telemetry [ITERATIONS]   (default 2000)

#include "telemetry/Registry.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

using namespace skinpulse::telemetry;
using Clock = std::chrono::steady_clock;

namespace {

void populate(Registry& r) {
  auto& polls = r.counter("skinpulse_source_polls_total", "Polls.", {"source", "result"});
  auto& accepted = r.counter("skinpulse_source_points_accepted_total", "Accepted.", {"source"});
  auto& rejected =
      r.counter("skinpulse_source_points_rejected_total", "Rejected.", {"source", "reason"});
  auto& outliers = r.counter("skinpulse_source_outliers_total", "Outliers.", {"source"});
  auto& last = r.gauge("skinpulse_source_last_success_timestamp_seconds", "Last.", {"source"});
  auto& interval = r.gauge("skinpulse_source_interval_seconds", "Interval.", {"source"});
  for (int s = 0; s < 30; ++s) {
    const std::string source = "market_" + std::to_string(s);
    for (const char* result : {"ok", "failed", "timeout", "rate_limited", "store_failed"}) {
      polls.labels({source, result}).inc(static_cast<std::uint64_t>(s * 7 + 3));
    }
    accepted.labels({source}).inc(123456 + s);
    for (const char* reason :
         {"not in catalogue", "price unreadable or not positive", "empty market_hash_name"}) {
      rejected.labels({source, reason}).inc(17);
    }
    outliers.labels({source}).inc(3);
    last.labels({source}).set(1764045000 + s);
    interval.labels({source}).set(60);
  }
  auto& cycle = r.histogram("skinpulse_cycle_duration_seconds", "Cycle.", {}, cycleBuckets());
  auto& stages =
      r.histogram("skinpulse_cycle_stage_duration_seconds", "Stages.", {"stage"}, cycleBuckets());
  for (int i = 0; i < 500; ++i) cycle.get().observe(0.05 * (i % 40));
  for (const char* stage :
       {"fetch", "parse", "normalise", "store", "latest_prices", "metrics", "publish", "fanout"}) {
    for (int i = 0; i < 100; ++i) stages.labels({stage}).observe(0.001 * i);
  }
  auto& requests =
      r.counter("skinpulse_http_requests_total", "Requests.", {"route", "method", "status"});
  auto& latency = r.histogram("skinpulse_http_request_duration_seconds", "Latency.",
                              {"route", "method"}, latencyBuckets());
  for (int route = 0; route < 60; ++route) {
    const std::string path = "/api/v1/feature_" + std::to_string(route) + "/:id";
    for (const char* status : {"200", "304", "404", "500"}) {
      requests.labels({path, "GET", status}).inc(1000 + route);
    }
    for (int i = 0; i < 50; ++i) latency.labels({path, "GET"}).observe(0.0002 * i);
  }
  r.gauge("skinpulse_ws_clients", "Clients.").get().set(10000);
  r.counter("skinpulse_ws_sent_bytes_total", "Bytes.").get().inc(987654321);
  auto& store = r.histogram("skinpulse_store_operation_duration_seconds", "Store.", {"mode"},
                            latencyBuckets());
  auto& shared = r.histogram("skinpulse_shared_store_operation_duration_seconds", "Shared.",
                             {"backend", "operation"}, latencyBuckets());
  for (const char* mode : {"read", "write"}) store.labels({mode}).observe(0.002);
  for (const char* op : {"ping", "get", "set", "set_if_absent", "remove", "take", "ttl_left",
                         "increment", "acquire_slot"}) {
    shared.labels({"redis", op}).observe(0.0004);
  }
  auto& imports = r.counter("skinpulse_imports_total", "Imports.", {"result"});
  for (const char* result : {"ok", "not_linked", "invalid_platform_id", "cooldown",
                             "upstream_failed", "store_unavailable", "error"}) {
    imports.labels({result}).inc(5);
  }
}

// The reference: the same page from a flat list of samples, rendered with ostringstream.
struct FlatSample {
  std::string name;
  std::vector<std::pair<std::string, std::string>> labels;
  double value;
};

std::vector<FlatSample> flatten(const std::string& page) {
  std::vector<FlatSample> samples;
  std::istringstream in(page);
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    FlatSample sample;
    const auto brace = line.find('{');
    const auto space = line.rfind(' ');
    sample.name = line.substr(0, brace == std::string::npos ? space : brace);
    if (brace != std::string::npos) {
      const std::string body = line.substr(brace + 1, line.rfind('}') - brace - 1);
      std::size_t at = 0;
      while (at < body.size()) {
        const auto eq = body.find('=', at);
        const auto close = body.find('"', eq + 2);
        sample.labels.emplace_back(body.substr(at, eq - at), body.substr(eq + 2, close - eq - 2));
        at = close + 2;
      }
    }
    sample.value = std::strtod(line.c_str() + space + 1, nullptr);
    samples.push_back(std::move(sample));
  }
  return samples;
}

std::string naive(const std::vector<FlatSample>& samples) {
  std::ostringstream out;
  std::string family;
  for (const auto& sample : samples) {
    if (sample.name != family) {
      family = sample.name;
      out << "# HELP " << sample.name << " Help.\n# TYPE " << sample.name << " untyped\n";
    }
    out << sample.name;
    if (!sample.labels.empty()) {
      out << '{';
      bool first = true;
      for (const auto& [name, value] : sample.labels) {
        if (!first) out << ',';
        first = false;
        out << name << "=\"" << value << '"';
      }
      out << '}';
    }
    out << ' ' << sample.value << '\n';
  }
  return out.str();
}

template <class F>
double medianMicros(int iterations, F&& render, std::size_t& bytes) {
  std::vector<double> times;
  times.reserve(iterations);
  for (int i = 0; i < iterations; ++i) {
    const auto start = Clock::now();
    bytes = render();
    times.push_back(std::chrono::duration<double, std::micro>(Clock::now() - start).count());
  }
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  const int iterations = argc > 1 ? std::atoi(argv[1]) : 2000;
  Registry registry;
  populate(registry);
  const std::string page = registry.render();
  const auto samples = flatten(page);

  // Interleaved rounds, so drift of the box hits both alike.
  std::size_t ours_bytes = 0;
  std::size_t naive_bytes = 0;
  std::vector<double> ours;
  std::vector<double> reference;
  for (int round = 0; round < 5; ++round) {
    ours.push_back(medianMicros(
        iterations / 5, [&] { return registry.render().size(); }, ours_bytes));
    reference.push_back(medianMicros(
        iterations / 5, [&] { return naive(samples).size(); }, naive_bytes));
  }
  std::sort(ours.begin(), ours.end());
  std::sort(reference.begin(), reference.end());
  std::printf(
      "{\"samples\":%zu,\"bytes\":%zu,\"ours_median_us\":%.1f,\"ostringstream_median_us\":%.1f,"
      "\"ostringstream_bytes\":%zu,\"ratio\":%.2f}\n",
      samples.size(), ours_bytes, ours[2], reference[2], naive_bytes, ours[2] / reference[2]);
  return ours[2] <= 1000.0 ? 0 : 1;
}
