#include "catalog/Catalog.hpp"

#include "skinpulse/sdk/variants.hpp"

#include "common/Json.hpp"
#include "common/Time.hpp"

#include <Poco/UTF8String.h>

#include <algorithm>

namespace skinpulse::catalog {
namespace {

std::string renderItem(const store::ItemRecord& item,
                       const std::vector<const CatalogItemView*>& variants) {
  common::JsonWriter json;
  json.beginObject()
      .key("id")
      .value(item.id)
      .key("market_hash_name")
      .value(item.market_hash_name)
      .key("weapon_type")
      .value(item.weapon_type)
      .key("skin_name")
      .value(item.skin_name)
      .key("rarity")
      .value(item.rarity)
      .key("stattrak")
      .value(item.stattrak)
      .key("image_url")
      .value(item.image_url)
      .key("created_at")
      .value(time::formatIso8601(item.created_at))
      .key("variant");
  if (item.variant.empty()) {
    json.null().key("variant_of").null();
  } else {
    json.value(item.variant).key("variant_of").value(item.variant_of.value_or(0));
  }
  json.key("variants").beginArray();
  for (const auto* variant : variants) {
    json.beginObject()
        .key("id")
        .value(variant->record.id)
        .key("variant")
        .value(variant->record.variant)
        .endObject();
  }
  json.endArray().endObject();
  return json.take();
}

sdk::CatalogItem toSdk(const store::ItemRecord& record) {
  return sdk::CatalogItem{record.id,        record.market_hash_name, record.weapon_type,
                          record.skin_name, record.rarity,           record.stattrak};
}

std::string variantKey(std::string_view name, std::string_view variant) {
  std::string key;
  key.reserve(name.size() + 1 + variant.size());
  key.append(name).push_back('\x1f');
  key.append(variant);
  return key;
}

std::size_t variantRank(std::string_view variant) {
  for (std::size_t i = 0; i < sdk::kVariantNames.size(); ++i) {
    if (sdk::kVariantNames[i] == variant) return i;
  }
  return sdk::kVariantNames.size();
}

}  // namespace

std::string lowerUtf8(const std::string& text) { return Poco::UTF8::toLower(text); }

CatalogSnapshot::CatalogSnapshot(std::vector<store::ItemRecord> records)
    : CatalogSnapshot(std::move(records), Fields::kAll) {}

std::unique_ptr<const CatalogSnapshot> CatalogSnapshot::forMatching(
    std::vector<store::ItemRecord> records) {
  return std::unique_ptr<const CatalogSnapshot>(
      new CatalogSnapshot(std::move(records), Fields::kMatching));
}

CatalogSnapshot::CatalogSnapshot(std::vector<store::ItemRecord> records, Fields fields) {
  std::sort(records.begin(), records.end(),
            [](const store::ItemRecord& a, const store::ItemRecord& b) { return a.id < b.id; });
  items_.reserve(records.size());
  by_id_.reserve(records.size());
  by_name_.reserve(records.size());
  for (auto& record : records) {
    CatalogItemView view;
    if (fields == Fields::kAll) {
      view.lower_name = lowerUtf8(record.market_hash_name);
      view.lower_weapon_type = lowerUtf8(record.weapon_type);
      view.lower_rarity = lowerUtf8(record.rarity);
    }
    view.record = std::move(record);
    by_id_.emplace(view.record.id, items_.size());
    if (view.isVariant()) {
      by_variant_.emplace(variantKey(view.record.market_hash_name, view.record.variant),
                          items_.size());
    } else {
      by_name_.emplace(view.record.market_hash_name, items_.size());
    }
    items_.push_back(std::move(view));
  }
  // items_ is complete: its addresses are stable from here on.
  for (auto& view : items_) {
    if (!view.isVariant()) {
      bases_.push_back(&view);
      continue;
    }
    const auto base = by_id_.find(view.record.variant_of.value_or(0));
    if (base != by_id_.end()) items_[base->second].variants.push_back(&view);
  }
  for (auto& view : items_) {
    std::sort(view.variants.begin(), view.variants.end(),
              [](const CatalogItemView* a, const CatalogItemView* b) {
                return variantRank(a->record.variant) < variantRank(b->record.variant);
              });
    if (fields == Fields::kAll) view.json = renderItem(view.record, view.variants);
  }
}

const CatalogItemView* CatalogSnapshot::findById(std::int64_t id) const {
  const auto it = by_id_.find(id);
  return it == by_id_.end() ? nullptr : &items_[it->second];
}

const CatalogItemView* CatalogSnapshot::findByName(std::string_view market_hash_name) const {
  const auto it = by_name_.find(market_hash_name);
  return it == by_name_.end() ? nullptr : &items_[it->second];
}

const CatalogItemView* CatalogSnapshot::findVariant(std::string_view market_hash_name,
                                                    std::string_view variant) const {
  if (by_variant_.empty() || variant.empty()) return nullptr;
  const auto it = by_variant_.find(variantKey(market_hash_name, variant));
  return it == by_variant_.end() ? nullptr : &items_[it->second];
}

std::shared_ptr<const std::string> CatalogSnapshot::unfilteredPage(std::size_t offset,
                                                                   std::size_t limit,
                                                                   bool with_variants) const {
  const auto key = std::make_tuple(offset, limit, with_variants);
  {
    std::lock_guard lock(pages_mutex_);
    const auto it = pages_.find(key);
    if (it != pages_.end()) return it->second;
  }
  std::vector<const CatalogItemView*> page;
  if (with_variants) {
    for (std::size_t i = offset; i < items_.size() && page.size() < limit; ++i) {
      page.push_back(&items_[i]);
    }
  } else {
    for (std::size_t i = offset; i < bases_.size() && page.size() < limit; ++i) {
      page.push_back(bases_[i]);
    }
  }
  auto body = std::make_shared<const std::string>(renderItemArray(page));
  std::lock_guard lock(pages_mutex_);
  if (cached_bytes_ + body->size() <= kMaxCachedBytes && pages_.emplace(key, body).second) {
    cached_bytes_ += body->size();
  }
  return body;
}

std::string renderItemArray(const std::vector<const CatalogItemView*>& items) {
  std::size_t size = 2;
  for (const auto* item : items) size += item->json.size() + 1;
  std::string body;
  body.reserve(size);
  body.push_back('[');
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i > 0) body.push_back(',');
    body += items[i]->json;
  }
  body.push_back(']');
  return body;
}

void Catalog::reset(std::vector<store::ItemRecord> records) {
  auto fresh = std::make_shared<const CatalogSnapshot>(std::move(records));
  std::lock_guard lock(mutex_);
  current_ = std::move(fresh);
}

std::shared_ptr<const CatalogSnapshot> Catalog::snapshot() const {
  std::lock_guard lock(mutex_);
  return current_;
}

ItemPage Catalog::query(const CatalogSnapshot& snapshot, const ItemQuery& query) {
  ItemPage page;
  const auto& items = snapshot.items();
  const auto& bases = snapshot.baseItems();
  const bool filtered = query.q || query.weapon_type || query.rarity || query.stattrak;
  if (!filtered) {
    // The common case needs no scan: the total is the catalogue size.
    page.total = query.variants ? items.size() : bases.size();
    for (std::size_t i = query.offset; i < page.total && page.items.size() < query.limit; ++i) {
      page.items.push_back(query.variants ? &items[i] : bases[i]);
    }
    return page;
  }
  for (const auto& item : items) {
    if (!query.variants && item.isVariant()) continue;
    if (query.stattrak && item.record.stattrak != *query.stattrak) continue;
    if (query.weapon_type && item.lower_weapon_type != *query.weapon_type) continue;
    if (query.rarity && item.lower_rarity != *query.rarity) continue;
    if (query.q && item.lower_name.find(*query.q) == std::string::npos) continue;
    if (page.total >= query.offset && page.items.size() < query.limit) page.items.push_back(&item);
    ++page.total;
  }
  return page;
}

std::optional<sdk::CatalogItem> Catalog::findByName(std::string_view market_hash_name) const {
  const auto snap = snapshot();
  const auto* item = snap->findByName(market_hash_name);
  if (item == nullptr) return std::nullopt;
  return toSdk(item->record);
}

std::vector<std::int64_t> Catalog::heldItemIds() const {
  if (!held_items_) return {};
  auto ids = held_items_();
  // Plugins price names: a held variant is its base's name.
  const auto snap = snapshot();
  for (auto& id : ids) {
    const auto* item = snap->findById(id);
    if (item != nullptr && item->record.variant_of) id = *item->record.variant_of;
  }
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  return ids;
}

std::optional<sdk::CatalogItem> Catalog::findById(std::int64_t id) const {
  const auto snap = snapshot();
  const auto* item = snap->findById(id);
  if (item == nullptr) return std::nullopt;
  return toSdk(item->record);
}

std::size_t Catalog::size() const { return snapshot()->baseItems().size(); }

void Catalog::forEach(const std::function<bool(const sdk::CatalogItem&)>& visit) const {
  const auto snap = snapshot();
  for (const auto* item : snap->baseItems()) {
    if (!visit(toSdk(item->record))) return;
  }
}

}  // namespace skinpulse::catalog
