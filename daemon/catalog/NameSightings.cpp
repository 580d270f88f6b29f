#include "catalog/NameSightings.hpp"

#include <algorithm>

namespace skinpulse::catalog {

NameSightings::NameSightings(std::size_t min_sources, std::int64_t window_seconds,
                             std::size_t max_names)
    : min_sources_(std::max<std::size_t>(min_sources, 1)),
      window_seconds_(window_seconds),
      max_names_(std::max<std::size_t>(max_names, 1)) {}

std::vector<std::string> NameSightings::record(std::string_view source,
                                               const std::vector<std::string>& names,
                                               std::int64_t now) {
  std::vector<std::string> ready;
  const std::int64_t oldest = now - window_seconds_;
  for (const auto& name : names) {
    auto [it, fresh] = names_.try_emplace(name);
    Entry& entry = it->second;
    entry.last_seen = now;
    // Sightings that left the window no longer count.
    std::erase_if(entry.sources, [oldest](const Sighting& s) { return s.at <= oldest; });
    const auto same = std::find_if(entry.sources.begin(), entry.sources.end(),
                                   [source](const Sighting& s) { return s.source == source; });
    if (same != entry.sources.end()) {
      same->at = now;
    } else {
      entry.sources.push_back(Sighting{std::string(source), now});
    }
    if (entry.sources.size() >= min_sources_) {
      ready.push_back(name);
      names_.erase(it);
    }
  }
  if (names_.size() > max_names_) prune(now);
  return ready;
}

void NameSightings::prune(std::int64_t now) {
  const std::int64_t oldest = now - window_seconds_;
  std::erase_if(names_, [oldest](const auto& item) { return item.second.last_seen <= oldest; });
  if (names_.size() <= max_names_) return;
  const std::size_t keep = max_names_ - max_names_ / 10;
  std::vector<std::pair<std::int64_t, const std::string*>> by_age;
  by_age.reserve(names_.size());
  for (const auto& [name, entry] : names_) by_age.emplace_back(entry.last_seen, &name);
  const auto cut = by_age.begin() + static_cast<std::ptrdiff_t>(names_.size() - keep);
  std::nth_element(by_age.begin(), cut, by_age.end());
  std::vector<std::string> forget;
  forget.reserve(names_.size() - keep);
  for (auto it = by_age.begin(); it != cut; ++it) forget.push_back(*it->second);
  for (const auto& name : forget) names_.erase(name);
}

}  // namespace skinpulse::catalog
