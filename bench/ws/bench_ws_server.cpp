// bench_ws_server: skinpulsed's live-update path without ingestion. It serves
// GET /api/v1/ws through the daemon's HTTP server and LiveHub, waits until the load
// client's connections are in, then publishes CYCLES synthetic cycles of ITEMS price
// points (and, unless --no-volatility, a 24h volatility object per item of the real
// object's size; the numbers are synthetic, this is a load test) through LiveUpdates,
// INTERVAL ms apart. For each cycle it prints
//   publish <cycle time ISO> <steady ns before LiveUpdates::onCycle> <steady ns after>
// (std::chrono::steady_clock is CLOCK_MONOTONIC: comparable with the client's clock),
// then its threads and RSS.
//
//   bench_ws_server --port P --clients N [--items 25000] [--cycles 5] [--interval-ms 3000]

#include "common/Log.hpp"
#include "common/OpenFileLimit.hpp"
#include "common/Time.hpp"
#include "events/InProcessEventBus.hpp"
#include "http/HttpServer.hpp"
#include "http/Router.hpp"
#include "ws/LiveHub.hpp"
#include "ws/LiveUpdates.hpp"
#include "ws/WsApi.hpp"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <random>
#include <string>
#include <sys/resource.h>
#include <thread>

using namespace skinpulse;
using Clock = std::chrono::steady_clock;

namespace {

struct Options {
  int port = 0;
  std::size_t clients = 0;
  int items = 25000;
  int cycles = 5;
  int interval_ms = 3000;
  bool volatility = true;
};

Options parse(int argc, char** argv) {
  Options options;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    auto next = [&]() -> long {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "%s needs a value\n", arg.c_str());
        std::exit(2);
      }
      return std::strtol(argv[++i], nullptr, 10);
    };
    if (arg == "--port")
      options.port = static_cast<int>(next());
    else if (arg == "--clients")
      options.clients = static_cast<std::size_t>(next());
    else if (arg == "--items")
      options.items = static_cast<int>(next());
    else if (arg == "--cycles")
      options.cycles = static_cast<int>(next());
    else if (arg == "--interval-ms")
      options.interval_ms = static_cast<int>(next());
    else if (arg == "--no-volatility")
      options.volatility = false;
    else {
      std::fprintf(stderr, "unknown option %s\n", arg.c_str());
      std::exit(2);
    }
  }
  return options;
}

// "Threads:" and "VmRSS:"/"VmHWM:" of /proc/self/status.
long statusField(const char* name) {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind(name, 0) == 0) return std::strtol(line.c_str() + std::strlen(name), nullptr, 10);
  }
  return -1;
}

// CPU time (user + system) the process used so far: what a cycle costs the server,
// whatever else the shared box runs.
std::pair<double, double> cpuMs() {
  rusage usage{};
  ::getrusage(RUSAGE_SELF, &usage);
  const auto ms = [](const timeval& t) { return t.tv_sec * 1e3 + t.tv_usec / 1e3; };
  return {ms(usage.ru_utime), ms(usage.ru_stime)};
}

void report(const char* phase, const ws::LiveHub& hub) {
  const auto [user, system] = cpuMs();
  std::printf(
      "stats %s connections=%zu threads=%ld rss_kb=%ld hwm_kb=%ld user_ms=%.0f sys_ms=%.0f\n",
      phase, hub.connectionCount(), statusField("Threads:"), statusField("VmRSS:"),
      statusField("VmHWM:"), user, system);
  std::fflush(stdout);
}

long long nanos(Clock::time_point t) {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(t.time_since_epoch()).count();
}

}  // namespace

int main(int argc, char** argv) {
  const Options options = parse(argc, argv);
  log::configure("warn", log::Format::kText);
  common::raiseOpenFileLimit();

  http::Router router;
  ws::LiveHub hub;
  events::InProcessEventBus bus;
  bus.subscribe([&hub](const events::UpdateBatchPtr& batch) { hub.publish(batch); });
  ws::WsApi api(hub);
  api.registerRoutes(router);
  http::ServerOptions server_options;
  server_options.port = static_cast<std::uint16_t>(options.port);
  server_options.access_log = false;
  // Every load client comes from 127.0.0.1: the caps must admit all of them (the daemon's
  // defaults, 10,000 and 256 per address, refuse the 257th with 503, and 16 WebSockets per
  // client the 17th handshake).
  server_options.max_connections = options.clients + 100;
  server_options.max_connections_per_ip = options.clients + 100;
  server_options.max_websockets_per_client = options.clients + 100;
  hub.start();
  http::HttpServer server(router, server_options);
  server.start();
  std::printf("port %u\n", server.port());
  report("idle", hub);

  // The shape of the real 24h Volatility metrics object (about 300 bytes).
  // The real provider copies an object pre-rendered by the metrics engine; so does this
  // one, from objects rendered per cycle before publishing.
  std::int64_t cycle_time = 0;
  std::vector<std::string> objects(static_cast<std::size_t>(options.items) + 1);
  ws::VolatilityProvider volatility;
  if (options.volatility) {
    volatility = [&objects](std::int64_t id) -> std::optional<std::string> {
      return objects[static_cast<std::size_t>(id)];
    };
  }
  ws::LiveUpdates live(bus, volatility);

  const auto connect_deadline = Clock::now() + std::chrono::minutes(3);
  while (hub.connectionCount() < options.clients && Clock::now() < connect_deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  std::this_thread::sleep_for(std::chrono::seconds(2));  // subscriptions land
  report("connected", hub);

  std::mt19937 random(42);
  std::vector<store::PricePoint> points(static_cast<std::size_t>(options.items));
  cycle_time = time::nowSeconds();
  for (int cycle = 0; cycle < options.cycles; ++cycle) {
    const auto started = Clock::now();
    cycle_time += 1;  // distinct per cycle, so the client can tell cycles apart
    for (int i = 0; i < options.items; ++i) {
      points[static_cast<std::size_t>(i)] = store::PricePoint{
          i + 1, "bench", cycle_time, 100 + static_cast<std::int64_t>(random() % 100000),
          static_cast<std::int64_t>(random() % 50)};
    }
    const std::string computed_at = time::formatIso8601(cycle_time);
    for (int id = 1; options.volatility && id <= options.items; ++id) {
      objects[static_cast<std::size_t>(id)] =
          R"({"item_id":)" + std::to_string(id) +
          R"(,"window":"24h","source":"bench","samples":24,"rolling_stddev":12.5,)"
          R"("percent_change":-1.25,"bollinger":{"upper":1125.0,"middle":1100.0,)"
          R"("lower":1075.0},"coefficient_of_variation":0.0114,"trend_score":-0.3,)"
          R"("computed_at":")" +
          computed_at + R"("})";
    }
    const auto before = Clock::now();
    live.onCycle(ingest::CycleUpdate{cycle_time, points});
    const auto after = Clock::now();
    std::printf("publish %s %lld %lld\n", time::formatIso8601(cycle_time).c_str(), nanos(before),
                nanos(after));
    std::fflush(stdout);
    std::this_thread::sleep_until(started + std::chrono::milliseconds(options.interval_ms));
    // How long after the publish each reactor began and ended its pass over its clients:
    // the server's share of the latency (the rest is the kernel and the load client).
    std::printf("passes");
    for (const auto& pass : hub.lastPasses()) {
      std::printf(" %.1f-%.1fms",
                  std::chrono::duration<double, std::milli>(pass.started - before).count(),
                  std::chrono::duration<double, std::milli>(pass.finished - before).count());
    }
    std::printf("\n");
    report("cycle", hub);
  }
  std::this_thread::sleep_for(std::chrono::seconds(10));  // the client finishes first
  report("done", hub);
  server.stop();
  hub.stop();
  return 0;
}
