#include "store/AppliedText.hpp"

#include "common/Json.hpp"
#include "common/JsonInteger.hpp"

#include <Poco/JSON/Array.h>
#include <Poco/JSON/Object.h>
#include <Poco/JSON/Parser.h>

#include <algorithm>

namespace skinpulse::store {

namespace {

// Stickers first, then charms (then anything else), each by slot.
int kindRank(const std::string& kind) {
  if (kind == "sticker") return 0;
  if (kind == "charm") return 1;
  return 2;
}

char kindLetter(const std::string& kind) {
  if (kind == "sticker") return 's';
  if (kind == "charm") return 'c';
  return 'x';
}

}  // namespace

std::vector<AppliedRecord> canonicalApplied(std::vector<AppliedRecord> applied) {
  std::stable_sort(applied.begin(), applied.end(),
                   [](const AppliedRecord& a, const AppliedRecord& b) {
                     const int ra = kindRank(a.kind);
                     const int rb = kindRank(b.kind);
                     if (ra != rb) return ra < rb;
                     if (a.kind != b.kind) return a.kind < b.kind;
                     return a.slot < b.slot;
                   });
  return applied;
}

std::string appliedKeyOf(const std::vector<AppliedRecord>& applied) {
  std::string key;
  for (const auto& one : canonicalApplied(applied)) {
    if (!key.empty()) key += ';';
    key += kindLetter(one.kind);
    key += std::to_string(one.slot);
    key += '=';
    key += one.item_id ? std::to_string(*one.item_id) : "n:" + one.name;
  }
  return key;
}

std::string appliedJsonOf(const std::vector<AppliedRecord>& applied) {
  common::JsonWriter json;
  json.beginArray();
  for (const auto& one : canonicalApplied(applied)) {
    json.beginObject()
        .key("kind")
        .value(one.kind)
        .key("slot")
        .value(one.slot)
        .key("name")
        .value(one.name)
        .key("item_id");
    if (one.item_id) {
      json.value(*one.item_id);
    } else {
      json.null();
    }
    json.endObject();
  }
  json.endArray();
  return json.take();
}

std::vector<AppliedRecord> appliedFromJson(std::string_view json) {
  std::vector<AppliedRecord> out;
  if (json.empty() || json == "[]") return out;
  try {
    Poco::JSON::Parser parser;
    const auto parsed = parser.parse(std::string(json));
    const auto array = parsed.extract<Poco::JSON::Array::Ptr>();
    for (std::size_t i = 0; i < array->size(); ++i) {
      const auto object = array->getObject(static_cast<unsigned>(i));
      if (!object) return {};
      AppliedRecord one;
      one.kind = object->optValue<std::string>("kind", "");
      one.name = object->optValue<std::string>("name", "");
      one.slot = static_cast<int>(common::jsonInteger(object->get("slot")).value_or(0));
      one.item_id = common::jsonInteger(object->get("item_id"));
      out.push_back(std::move(one));
    }
  } catch (const std::exception&) {
    return {};
  }
  return out;
}

}  // namespace skinpulse::store
