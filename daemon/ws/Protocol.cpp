#include "ws/Protocol.hpp"

#include "common/JsonInteger.hpp"

#include <Poco/Exception.h>
#include <Poco/JSON/Array.h>
#include <Poco/JSON/Object.h>
#include <Poco/JSON/Parser.h>

#include <algorithm>
#include <iterator>

namespace skinpulse::ws {
namespace {

// A message is at most 4 KiB; real ones nest two levels. The limit keeps a hostile
// "[[[[..." from costing more than a quick refusal.
constexpr std::size_t kMaxJsonDepth = 8;

bool readItems(const Poco::Dynamic::Var& value, ClientMessage& message) {
  if (value.isString()) {
    if (value.extract<std::string>() != "*") return false;
    message.all = true;
    return true;
  }
  if (value.type() != typeid(Poco::JSON::Array::Ptr)) return false;
  const auto array = value.extract<Poco::JSON::Array::Ptr>();
  message.items.reserve(array->size());
  for (std::size_t i = 0; i < array->size(); ++i) {
    const auto element = array->get(static_cast<unsigned>(i));
    const auto id = common::jsonInteger(element);
    if (!id || *id <= 0) return false;
    message.items.push_back(*id);
  }
  std::sort(message.items.begin(), message.items.end());
  message.items.erase(std::unique(message.items.begin(), message.items.end()), message.items.end());
  return true;
}

}  // namespace

ClientMessage parseClientMessage(std::string_view text) {
  ClientMessage invalid;
  Poco::Dynamic::Var root;
  try {
    Poco::JSON::Parser parser;
    parser.setDepth(kMaxJsonDepth);
    root = parser.parse(std::string(text));
  } catch (const Poco::Exception&) {
    return invalid;
  } catch (const std::exception&) {
    return invalid;
  }
  if (root.type() != typeid(Poco::JSON::Object::Ptr)) return invalid;
  const auto object = root.extract<Poco::JSON::Object::Ptr>();
  const auto type = object->get("type");
  if (!type.isString()) return invalid;
  const auto name = type.extract<std::string>();
  ClientMessage message;
  if (name == "ping") {
    message.type = ClientMessage::Type::kPing;
    return message;
  }
  if (name == "subscribe") {
    message.type = ClientMessage::Type::kSubscribe;
  } else if (name == "unsubscribe") {
    message.type = ClientMessage::Type::kUnsubscribe;
  } else {
    return invalid;
  }
  if (!object->has("items") || !readItems(object->get("items"), message)) return invalid;
  return message;
}

bool Subscription::subscribe(const ClientMessage& message) {
  if (message.all) {
    all_ = true;
    ids_.clear();
    return true;
  }
  if (all_) return true;
  std::vector<std::int64_t> merged;
  merged.reserve(ids_.size() + message.items.size());
  std::set_union(ids_.begin(), ids_.end(), message.items.begin(), message.items.end(),
                 std::back_inserter(merged));
  if (merged.size() > kMaxItems) return false;
  ids_ = std::move(merged);
  return true;
}

void Subscription::unsubscribe(const ClientMessage& message) {
  if (message.all) {
    all_ = false;
    ids_.clear();
    return;
  }
  if (all_) return;
  std::vector<std::int64_t> kept;
  kept.reserve(ids_.size());
  std::set_difference(ids_.begin(), ids_.end(), message.items.begin(), message.items.end(),
                      std::back_inserter(kept));
  ids_ = std::move(kept);
}

bool Subscription::contains(std::int64_t item_id) const {
  return all_ || std::binary_search(ids_.begin(), ids_.end(), item_id);
}

std::string Subscription::acknowledgement() const {
  std::string out = R"({"type":"subscribed","items":)";
  if (all_) {
    out += "\"*\"";
  } else {
    out += '[';
    for (std::size_t i = 0; i < ids_.size(); ++i) {
      if (i > 0) out += ',';
      out += std::to_string(ids_[i]);
    }
    out += ']';
  }
  out += '}';
  return out;
}

}  // namespace skinpulse::ws
