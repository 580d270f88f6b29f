#include "metrics/MetricsSnapshot.hpp"

#include <algorithm>

namespace skinpulse::metrics {

MetricsSnapshot::MetricsSnapshot(std::int64_t computed_at, std::array<Window, kWindowCount> windows)
    : computed_at_(computed_at), windows_(std::move(windows)) {}

std::string_view MetricsSnapshot::volatility(std::int64_t item_id, std::size_t window) const {
  if (window >= kWindowCount) return {};
  const auto& w = windows_[window];
  const auto it =
      std::lower_bound(w.slots.begin(), w.slots.end(), item_id,
                       [](const Window::Slot& slot, std::int64_t id) { return slot.item_id < id; });
  if (it == w.slots.end() || it->item_id != item_id) return {};
  return std::string_view(w.objects).substr(it->offset, it->length);
}

const MetricsSnapshot::Signal* MetricsSnapshot::signal(std::int64_t item_id,
                                                       std::size_t window) const {
  if (window >= kWindowCount) return nullptr;
  const auto& w = windows_[window];
  const auto it =
      std::lower_bound(w.slots.begin(), w.slots.end(), item_id,
                       [](const Window::Slot& slot, std::int64_t id) { return slot.item_id < id; });
  if (it == w.slots.end() || it->item_id != item_id) return nullptr;
  const auto index = static_cast<std::size_t>(it - w.slots.begin());
  return index < w.signals.size() ? &w.signals[index] : nullptr;
}

std::string_view MetricsSnapshot::volatility(std::int64_t item_id, std::string_view window) const {
  const auto index = windowIndex(window);
  return index ? volatility(item_id, *index) : std::string_view();
}

std::string MetricsSnapshot::emptyVolatility(std::int64_t item_id, std::size_t window) const {
  return "{\"item_id\":" + std::to_string(item_id) + windows_[window].empty_tail;
}

std::string MetricsSnapshot::rankingBody(std::size_t window, std::size_t limit) const {
  const auto& w = windows_[window];
  const std::size_t count = std::min(limit, w.ranking_ends.size());
  std::string body;
  const std::size_t bytes = count == 0 ? 0 : w.ranking_ends[count - 1];
  body.reserve(bytes + 2);
  body += '[';
  body.append(w.ranking, 0, bytes);
  body += ']';
  return body;
}

}  // namespace skinpulse::metrics
