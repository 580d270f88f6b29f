#include "portfolio/CostCsvReport.hpp"

#include "common/Json.hpp"
#include "common/Time.hpp"

namespace skinpulse::portfolio {
namespace {

void csvReportNumber(common::JsonWriter& json, const std::optional<std::int64_t>& number) {
  if (number) {
    json.value(*number);
  } else {
    json.null();
  }
}

void csvReportTime(common::JsonWriter& json, const std::optional<std::int64_t>& at) {
  if (at) {
    json.value(time::formatIso8601(*at));
  } else {
    json.null();
  }
}

void csvReportRow(common::JsonWriter& json, const CostCsvRow& row) {
  json.beginObject()
      .key("line")
      .value(static_cast<std::int64_t>(row.line))
      .key("market_hash_name")
      .value(row.market_hash_name)
      .key("item_id");
  csvReportNumber(json, row.item_id);
  json.key("quantity");
  csvReportNumber(json, row.quantity);
  json.key("cost_each");
  csvReportNumber(json, row.cost_each);
  json.key("currency").value(row.currency).key("acquired_at");
  csvReportTime(json, row.acquired_at);
  json.key("status").value(row.matched() ? "matched" : "refused").key("code");
  if (row.matched()) {
    json.null().key("detail").null();
  } else {
    json.value(row.code).key("detail").value(row.detail);
  }
  json.endObject();
}

void csvReportItem(common::JsonWriter& json, const CostCsvItem& item) {
  json.beginObject()
      .key("item_id")
      .value(item.item_id)
      .key("market_hash_name")
      .value(item.market_hash_name)
      .key("quantity")
      .value(item.quantity)
      .key("cost_basis")
      .value(item.cost_basis)
      .key("acquired_at");
  csvReportTime(json, item.acquired_at);
  json.key("previous_cost_basis");
  csvReportNumber(json, item.previous_cost_basis);
  json.endObject();
}

}  // namespace

std::string costCsvReportJson(const CostCsvPlan& plan, bool dry_run) {
  common::JsonWriter json;
  json.beginObject().key("dry_run").value(dry_run).key("rows").beginArray();
  for (const auto& row : plan.rows) csvReportRow(json, row);
  json.endArray().key("items").beginArray();
  for (const auto& item : plan.items) csvReportItem(json, item);
  json.endArray()
      .key("matched_rows")
      .value(static_cast<std::int64_t>(plan.matchedRows()))
      .key("refused_rows")
      .value(static_cast<std::int64_t>(plan.refusedRows()))
      .endObject();
  return json.take();
}

}  // namespace skinpulse::portfolio
