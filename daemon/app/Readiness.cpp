#include "app/Readiness.hpp"

#include "ingest/CycleHooks.hpp"

namespace skinpulse::app {

Readiness ReadinessReport::operator()(bool detailed) const {
  drain_.probed();
  store::Database& database = services_.database;
  state::SharedStore& shared_store = services_.shared_store;
  const bool databaseOk = database.ping();
  // Reported, not part of readiness: without the store only sessions are down (§5).
  const bool sharedStoreOk = shared_store.ping();
  common::JsonWriter json;
  json.beginObject().key("database").beginObject();
  if (detailed) json.key("backend").value(database.backend());
  json.key("ok").value(databaseOk).endObject();
  if (detailed) {
    json.key("catalog_items").value(static_cast<std::int64_t>(services_.catalog.size()));
  }
  json.key("shared_store").beginObject();
  if (detailed) json.key("backend").value(shared_store.backend());
  json.key("ok").value(sharedStoreOk).endObject();
  bool ready = databaseOk;
  if (detailed) {
    plugins_.describe(json);
    ready = modules_.describeReadiness(json) && ready;
  } else {
    // The public view: no paths, versions, sources or error texts (docs/api.md). The
    // modules still decide readiness alike; what they write is the admin listener's.
    common::JsonWriter hidden;
    hidden.beginObject();
    ready = modules_.describeReadiness(hidden) && ready;
    const auto* ingest = services_.registry.find<ingest::CycleHooks>();
    json.key("ingest").value(ingest == nullptr || ingest->polling() ? "polling" : "standby");
  }
  // Draining: out of rotation first, while the requests already sent are still served.
  // Only then is "state" there: the serving body stays what §17 lists.
  const bool draining = drain_.draining();
  if (draining) json.key("state").value("draining");
  ready = ready && !draining;
  json.endObject();
  // "status" leads the object: it is known only once every part has been asked.
  std::string body = json.take();
  body.insert(1, std::string("\"status\":\"") + (ready ? "ready" : "unavailable") + "\",");
  return Readiness{ready, std::move(body)};
}

}  // namespace skinpulse::app
