#include "portfolio/PortfolioDepthJson.hpp"

#include "common/Time.hpp"

namespace skinpulse::portfolio {

namespace {

void depthAmountOrNull(common::JsonWriter& json, const Money& money,
                       const std::optional<std::int64_t>& cents) {
  if (cents) {
    json.value(money.minor(*cents));
  } else {
    json.null();
  }
}

void depthTimeOrNull(common::JsonWriter& json, const std::optional<std::int64_t>& at) {
  if (at) {
    json.value(time::formatIso8601(*at));
  } else {
    json.null();
  }
}

}  // namespace

void writeAppliedList(common::JsonWriter& json, const std::vector<ValuedApplied>& applied,
                      const Money& money) {
  json.beginArray();
  for (const auto& one : applied) {
    json.beginObject().key("kind").value(one.kind).key("slot").value(one.slot).key("item_id");
    if (one.item_id) {
      json.value(*one.item_id);
    } else {
      json.null();
    }
    json.key("name").value(one.name).key("current_price");
    depthAmountOrNull(json, money, one.current_price);
    json.endObject();
  }
  json.endArray();
}

void writeDeparture(common::JsonWriter& json, const ValuedDeparture& departure,
                    const Money& money) {
  const auto& record = departure.record;
  json.beginObject()
      .key("departure_id")
      .value(record.departure_id)
      .key("item_id")
      .value(record.item_id)
      .key("market_hash_name")
      .value(departure.market_hash_name)
      .key("variant");
  if (departure.variant.empty()) {
    json.null();
  } else {
    json.value(departure.variant);
  }
  json.key("account").value(record.account).key("applied");
  writeAppliedList(json, departure.applied, money);
  json.key("quantity").value(record.quantity);
  if (money.requested()) json.key("currency").value(money.currency());
  json.key("left_at")
      .value(time::formatIso8601(record.left_at))
      .key("last_price")
      .value(money.minor(record.last_price))
      .key("last_value")
      .value(money.minor(departure.last_value))
      .key("cost_basis");
  depthAmountOrNull(json, money, record.cost_basis);
  json.key("acquired_at");
  depthTimeOrNull(json, record.acquired_at);
  json.key("sale_price");
  depthAmountOrNull(json, money, record.sale_price);
  json.key("realised_pl");
  depthAmountOrNull(json, money, departure.realised_pl);
  json.endObject();
}

void writeAccounts(common::JsonWriter& json, const std::vector<AccountSummary>& accounts,
                   const Money& money) {
  json.beginArray();
  for (const auto& account : accounts) {
    json.beginObject()
        .key("account")
        .value(account.account)
        .key("label")
        .value(account.label)
        .key("item_count")
        .value(account.item_count)
        .key("total_value")
        .value(money.minor(account.total_value))
        .key("last_imported_at");
    depthTimeOrNull(json, account.last_imported_at);
    json.endObject();
  }
  json.endArray();
}

}  // namespace skinpulse::portfolio
