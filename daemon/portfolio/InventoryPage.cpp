#include "portfolio/InventoryPage.hpp"

#include "common/JsonInteger.hpp"
#include "portfolio/InventoryError.hpp"
#include "portfolio/InventoryPageApplied.hpp"

#include <Poco/JSON/Array.h>
#include <Poco/JSON/Object.h>
#include <Poco/JSON/Parser.h>

#include <limits>
#include <unordered_map>

namespace skinpulse::portfolio {

namespace {

using Poco::Dynamic::Var;
using Poco::JSON::Array;
using Poco::JSON::Object;

// The real format nests five levels (root → descriptions → description → tags → tag, and
// root → descriptions → description → descriptions → entry for the sticker block).
constexpr std::size_t kMaxDepth = 16;
constexpr std::size_t kMaxIdDigits = 20;
// Real stacks (cases, stickers, graffiti) hold at most a few thousand units.
constexpr std::uint64_t kMaxAmount = 1'000'000'000;

[[noreturn]] void malformed(const std::string& what) {
  throw InventoryError(InventoryError::Kind::kUpstream, "inventory page: " + what);
}

Object::Ptr parseRoot(std::string_view body) {
  Var root;
  try {
    Poco::JSON::Parser parser;
    parser.setDepth(kMaxDepth);
    root = parser.parse(std::string(body));
  } catch (const std::exception&) {
    // Poco's message may quote the body: keep it out of the log.
    malformed("not valid JSON (or nested deeper than " + std::to_string(kMaxDepth) + ")");
  }
  if (root.type() != typeid(Object::Ptr) || root.extract<Object::Ptr>().isNull()) {
    malformed("top level is not a JSON object");
  }
  return root.extract<Object::Ptr>();
}

/// A non-negative integer given as a string of digits or as a JSON integer, in its
/// canonical decimal form. Empty optional for anything else.
std::optional<std::string> digits(const Var& value) {
  if (value.isString()) {
    const std::string text = value.extract<std::string>();
    if (text.empty() || text.size() > kMaxIdDigits) return std::nullopt;
    for (const char c : text) {
      if (c < '0' || c > '9') return std::nullopt;
    }
    return text;
  }
  if (value.isInteger() && !value.isBoolean()) {
    if (value.isSigned() && value.convert<Poco::Int64>() < 0) return std::nullopt;
    return std::to_string(value.convert<Poco::UInt64>());
  }
  return std::nullopt;
}

std::string requiredId(const Object& object, const char* name, const char* where) {
  if (!object.has(name)) malformed(std::string(where) + " without " + name);
  auto id = digits(object.get(name));
  if (!id) malformed(std::string(where) + " has a " + name + " that is not an integer id");
  return *id;
}

/// instanceid is optional and "0" when absent (node-steamcommunity's join rule).
std::string instanceId(const Object& object, const char* where) {
  if (!object.has("instanceid") || object.get("instanceid").isEmpty()) return "0";
  return requiredId(object, "instanceid", where);
}

/// 0/1 and true/false both occur (some clients and proxies rewrite them).
std::optional<bool> flag(const Var& value) {
  if (value.isBoolean()) return value.extract<bool>();
  const auto number = common::jsonInteger(value);
  if (number == 0 || number == 1) return number == 1;
  return std::nullopt;
}

Array::Ptr optionalArray(const Object& root, const char* name) {
  if (!root.has(name) || root.get(name).isEmpty()) return nullptr;  // an empty inventory
  const Var value = root.get(name);
  if (value.type() != typeid(Array::Ptr) || value.extract<Array::Ptr>().isNull()) {
    malformed(std::string(name) + " is not an array");
  }
  return value.extract<Array::Ptr>();
}

Object::Ptr elementObject(const Array& array, std::size_t i, const char* what) {
  const Var element = array.get(static_cast<unsigned>(i));
  if (element.type() != typeid(Object::Ptr) || element.extract<Object::Ptr>().isNull()) {
    malformed(std::string(what) + " " + std::to_string(i) + " is not an object");
  }
  return element.extract<Object::Ptr>();
}

/// What a description tells an import: the name (empty optional: described, but without
/// a name) and the picture's path on the platform's image server (empty when none).
struct Described {
  std::optional<std::string> market_hash_name;
  std::string icon_url;
  std::vector<AppliedAsset> applied;
};

/// classid_instanceid → its description.
using NamesByClass = std::unordered_map<std::string, Described>;

// The picture is cosmetic: a description whose icon_url is not a string keeps its name
// (refusing the page over it would cost the user holdings), it just has no picture.
std::string iconOf(const Object& description) {
  if (!description.has("icon_url")) return {};
  const Var value = description.get("icon_url");
  return value.isString() ? value.extract<std::string>() : std::string();
}

// What is applied (docs/upstreams.md §d.4): the description's own `descriptions` entries
// carry a sticker block and a charm block as html. Like the picture, this is cosmetic to
// the page's shape: an entry that is not the documented shape is skipped, and a block that
// cannot be read for certain adds nothing, so the asset is still held (as its bare item).
// Only the first block of each kind counts; stickers come before charms.
std::vector<AppliedAsset> appliedOf(const Object& description) {
  if (!description.has("descriptions")) return {};
  const Var list = description.get("descriptions");
  if (list.type() != typeid(Array::Ptr) || list.extract<Array::Ptr>().isNull()) return {};
  const Array& entries = *list.extract<Array::Ptr>();
  std::optional<std::vector<AppliedAsset>> stickers;
  std::optional<std::vector<AppliedAsset>> charms;
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const Var entry = entries.get(static_cast<unsigned>(i));
    if (entry.type() != typeid(Object::Ptr) || entry.extract<Object::Ptr>().isNull()) continue;
    const Object& fields = *entry.extract<Object::Ptr>();
    if (!fields.has("value") || !fields.get("value").isString()) continue;
    const std::string html = fields.get("value").extract<std::string>();
    const bool has_name = fields.has("name") && fields.get("name").isString();
    const std::string name = has_name ? fields.get("name").extract<std::string>() : std::string();
    const auto kind = appliedBlockKind(name, has_name, html);
    if (!kind) continue;
    auto& slot = *kind == AppliedBlockKind::kSticker ? stickers : charms;
    if (slot) continue;
    slot = parseAppliedBlock(*kind, html).value_or(std::vector<AppliedAsset>{});
  }
  std::vector<AppliedAsset> applied = stickers.value_or(std::vector<AppliedAsset>{});
  if (charms) applied.insert(applied.end(), charms->begin(), charms->end());
  return applied;
}

NamesByClass readDescriptions(const Object& root) {
  NamesByClass names;
  const auto descriptions = optionalArray(root, "descriptions");
  if (!descriptions) return names;
  for (std::size_t i = 0; i < descriptions->size(); ++i) {
    const auto description = elementObject(*descriptions, i, "description");
    const std::string key = requiredId(*description, "classid", "description") + "_" +
                            instanceId(*description, "description");
    std::optional<std::string> name;
    if (description->has("market_hash_name") && !description->get("market_hash_name").isEmpty()) {
      const Var value = description->get("market_hash_name");
      if (!value.isString()) malformed("description has a market_hash_name that is not a string");
      name = value.extract<std::string>();
    }
    // a repeated class keeps its first description
    names.emplace(key, Described{std::move(name), iconOf(*description), appliedOf(*description)});
  }
  return names;
}

std::int64_t amountOf(const Object& asset) {
  if (!asset.has("amount")) return 1;
  const auto text = digits(asset.get("amount"));
  if (!text || text->size() > 10) malformed("asset has an amount that is not a count");
  const std::uint64_t amount = std::stoull(*text);
  if (amount < 1 || amount > kMaxAmount) malformed("asset has an amount out of range");
  return static_cast<std::int64_t>(amount);
}

// asset_properties (docs/upstreams.md §d): per asset id, properties such as the paint seed
// (1), the wear (2), the certificate (6) and the paint index, "Finish Catalog" (7). Only the
// paint index is read. These properties are an addition to the format: a strange entry is
// skipped rather than refusing the page, and the asset is then held as its name's base item.
constexpr int kPaintIndexProperty = 7;
constexpr std::int64_t kMaxPaintIndex = 1'000'000;

std::unordered_map<std::string, std::int64_t> readPaintIndexes(const Object& root) {
  std::unordered_map<std::string, std::int64_t> indexes;
  if (!root.has("asset_properties")) return indexes;
  const Var list = root.get("asset_properties");
  if (list.type() != typeid(Array::Ptr) || list.extract<Array::Ptr>().isNull()) return indexes;
  const Array& entries = *list.extract<Array::Ptr>();
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const Var entry = entries.get(static_cast<unsigned>(i));
    if (entry.type() != typeid(Object::Ptr) || entry.extract<Object::Ptr>().isNull()) continue;
    const Object& asset = *entry.extract<Object::Ptr>();
    if (!asset.has("assetid") || !asset.has("asset_properties")) continue;
    const auto asset_id = digits(asset.get("assetid"));
    const Var properties = asset.get("asset_properties");
    if (!asset_id || properties.type() != typeid(Array::Ptr) ||
        properties.extract<Array::Ptr>().isNull()) {
      continue;
    }
    const Array& props = *properties.extract<Array::Ptr>();
    for (std::size_t j = 0; j < props.size(); ++j) {
      const Var prop = props.get(static_cast<unsigned>(j));
      if (prop.type() != typeid(Object::Ptr) || prop.extract<Object::Ptr>().isNull()) continue;
      const Object& property = *prop.extract<Object::Ptr>();
      if (!property.has("propertyid") || !property.has("int_value")) continue;
      if (common::jsonInteger(property.get("propertyid")) != kPaintIndexProperty) continue;
      const auto value = digits(property.get("int_value"));
      if (!value || value->size() > 7) continue;
      const std::int64_t index = std::stoll(*value);
      if (index <= kMaxPaintIndex) indexes[*asset_id] = index;
    }
  }
  return indexes;
}

}  // namespace

InventoryPage parseInventoryPage(std::string_view body) {
  const Object::Ptr root = parseRoot(body);
  if (!root->has("success") || flag(root->get("success")) != std::optional<bool>(true)) {
    malformed("success is not 1");
  }
  InventoryPage page;
  const NamesByClass names = readDescriptions(*root);
  const auto paint_indexes = readPaintIndexes(*root);
  if (const auto assets = optionalArray(*root, "assets")) {
    page.assets.reserve(assets->size());
    for (std::size_t i = 0; i < assets->size(); ++i) {
      const auto asset = elementObject(*assets, i, "asset");
      InventoryAsset out;
      out.asset_id = requiredId(*asset, "assetid", "asset");
      const std::string key =
          requiredId(*asset, "classid", "asset") + "_" + instanceId(*asset, "asset");
      if (const auto found = names.find(key); found != names.end()) {
        out.market_hash_name = found->second.market_hash_name;
        out.icon_url = found->second.icon_url;
        out.applied = found->second.applied;
      }
      out.amount = amountOf(*asset);
      if (const auto index = paint_indexes.find(out.asset_id); index != paint_indexes.end()) {
        out.paint_index = index->second;
      }
      page.assets.push_back(std::move(out));
    }
  }
  if (root->has("more_items") && !root->get("more_items").isEmpty()) {
    const auto more = flag(root->get("more_items"));
    if (!more) malformed("more_items is not 0 or 1");
    page.more_items = *more;
  }
  if (page.more_items) {
    if (!root->has("last_assetid")) malformed("more_items without last_assetid");
    const auto last = digits(root->get("last_assetid"));
    if (!last) malformed("last_assetid is not an integer id");
    page.last_asset_id = *last;
  }
  return page;
}

}  // namespace skinpulse::portfolio
