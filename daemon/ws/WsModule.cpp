#include "ws/WsModule.hpp"

#include "common/Log.hpp"
#include "ingest/CycleHooks.hpp"
#include "ingest/CycleStageMetrics.hpp"
#include "metrics/MetricsEngine.hpp"

namespace skinpulse::ws {

namespace {

// How often the signed-in sockets' sessions are looked up in the shared store: the
// longest a socket outlives a session end the event bus lost (docs/api.md §7).
constexpr std::chrono::seconds kSessionCheckPeriod(30);

// "https://host[:port]" of BASE_URL: what a browser sends as Origin from our pages.
std::string originOf(const std::string& url) {
  const auto scheme = url.find("://");
  if (scheme == std::string::npos) return "";
  return url.substr(0, url.find('/', scheme + 3));
}

}  // namespace

WsModule::WsModule(module::Services& services) {
  WsOptions options;
  options.redis_url = services.redis_url;
  options.signed_in_origin = originOf(services.base_url);
  bus_ = events::makeEventBus(options.redis_url);
  hub_ = std::make_unique<LiveHub>(options.hub);
  bus_->subscribe([hub = hub_.get()](const events::UpdateBatchPtr& batch) { hub->publish(batch); });
  bus_->subscribeSessionEnds([hub = hub_.get()](const std::string& key) { hub->endSession(key); });
  api_ = std::make_unique<WsApi>(*hub_, options.signed_in_origin);
  // The 24h Volatility object of an item, as the volatility frames carry it.
  updates_ = std::make_unique<LiveUpdates>(
      *bus_, [this](std::int64_t item_id) -> std::optional<std::string> {
        if (metrics_ == nullptr) return std::nullopt;
        const auto object = metrics_->snapshot()->volatility(item_id, "24h");
        if (object.empty()) return std::nullopt;
        return std::string(object);
      });
  // The fan-out stage's time into skinpulse_cycle_stage_duration_seconds.
  hub_->setTimingsObserver(&ingest::cycleStageMetrics());
  services.registry.provide<events::UserFrames>(*this);
  services.registry.provide<state::SessionEnds>(*this);
  session_check_ = std::make_unique<SessionCheck>(*hub_, services.shared_store);
  session_check_task_ = std::make_unique<common::PeriodicTask>(
      "live session check", kSessionCheckPeriod, kSessionCheckPeriod,
      [check = session_check_.get()] { check->run(); });
}

void WsModule::attach(module::Services& services) {
  metrics_ = &services.registry.require<metrics::MetricsEngine>();
  // Last: the volatility frames need the metrics of this cycle.
  services.registry.require<ingest::CycleHooks>().addObserver(*updates_,
                                                              ingest::CycleStage::kPublish);
}

WsModule::~WsModule() = default;

void WsModule::start() {
  hub_->start();
  bus_->start();
  session_check_task_->start();
  log::main().info("live updates: {} event bus", bus_->name());
}

bool WsModule::stop() {
  session_check_task_->stop();
  hub_->stop();
  bus_->stop();
  return true;
}

}  // namespace skinpulse::ws
