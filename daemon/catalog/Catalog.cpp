#include "catalog/Catalog.hpp"

#include "common/Json.hpp"
#include "common/Time.hpp"

#include <Poco/UTF8String.h>

#include <algorithm>

namespace skinpulse {
namespace {

std::string renderItem(const ItemRecord& item) {
  JsonWriter json;
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
      .endObject();
  return json.take();
}

sdk::CatalogItem toSdk(const ItemRecord& record) {
  return sdk::CatalogItem{record.id,        record.market_hash_name, record.weapon_type,
                          record.skin_name, record.rarity,           record.stattrak};
}

}  // namespace

std::string lowerUtf8(const std::string& text) { return Poco::UTF8::toLower(text); }

CatalogSnapshot::CatalogSnapshot(std::vector<ItemRecord> records)
    : CatalogSnapshot(std::move(records), Fields::kAll) {}

std::unique_ptr<const CatalogSnapshot> CatalogSnapshot::forMatching(
    std::vector<ItemRecord> records) {
  return std::unique_ptr<const CatalogSnapshot>(
      new CatalogSnapshot(std::move(records), Fields::kMatching));
}

CatalogSnapshot::CatalogSnapshot(std::vector<ItemRecord> records, Fields fields) {
  std::sort(records.begin(), records.end(),
            [](const ItemRecord& a, const ItemRecord& b) { return a.id < b.id; });
  items_.reserve(records.size());
  by_id_.reserve(records.size());
  by_name_.reserve(records.size());
  for (auto& record : records) {
    CatalogItemView view;
    if (fields == Fields::kAll) {
      view.lower_name = lowerUtf8(record.market_hash_name);
      view.lower_weapon_type = lowerUtf8(record.weapon_type);
      view.lower_rarity = lowerUtf8(record.rarity);
      view.json = renderItem(record);
    }
    view.record = std::move(record);
    by_id_.emplace(view.record.id, items_.size());
    by_name_.emplace(view.record.market_hash_name, items_.size());
    items_.push_back(std::move(view));
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

std::shared_ptr<const std::string> CatalogSnapshot::unfilteredPage(std::size_t offset,
                                                                   std::size_t limit) const {
  const auto key = std::make_pair(offset, limit);
  {
    std::lock_guard lock(pages_mutex_);
    const auto it = pages_.find(key);
    if (it != pages_.end()) return it->second;
  }
  std::vector<const CatalogItemView*> page;
  for (std::size_t i = offset; i < items_.size() && page.size() < limit; ++i) {
    page.push_back(&items_[i]);
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

void Catalog::reset(std::vector<ItemRecord> records) {
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
  const bool filtered = query.q || query.weapon_type || query.rarity || query.stattrak;
  if (!filtered) {
    // The common case needs no scan: the total is the catalogue size.
    page.total = items.size();
    for (std::size_t i = query.offset; i < items.size() && page.items.size() < query.limit; ++i) {
      page.items.push_back(&items[i]);
    }
    return page;
  }
  for (const auto& item : items) {
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
  return held_items_ ? held_items_() : std::vector<std::int64_t>{};
}

std::optional<sdk::CatalogItem> Catalog::findById(std::int64_t id) const {
  const auto snap = snapshot();
  const auto* item = snap->findById(id);
  if (item == nullptr) return std::nullopt;
  return toSdk(item->record);
}

std::size_t Catalog::size() const { return snapshot()->items().size(); }

void Catalog::forEach(const std::function<bool(const sdk::CatalogItem&)>& visit) const {
  const auto snap = snapshot();
  for (const auto& item : snap->items()) {
    if (!visit(toSdk(item.record))) return;
  }
}

}  // namespace skinpulse
