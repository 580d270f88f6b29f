#include "ws/UpdateFrames.hpp"

#include "ws/Frame.hpp"

#include <algorithm>

namespace skinpulse::ws {

std::vector<SharedBytes> renderUpdateFrames(
    const std::string& kind, const std::vector<const events::UpdateEntry*>& entries) {
  std::vector<SharedBytes> frames;
  const std::string prefix = R"({"type":")" + kind + R"(","data":[)";
  const std::string_view suffix = "]}";
  for (std::size_t first = 0; first < entries.size(); first += UpdateFrames::kMaxEntriesPerFrame) {
    const std::size_t last = std::min(entries.size(), first + UpdateFrames::kMaxEntriesPerFrame);
    std::size_t payload = prefix.size() + suffix.size() + (last - first - 1);
    for (std::size_t i = first; i < last; ++i) payload += entries[i]->json.size();
    auto frame = std::make_shared<std::string>();
    frame->reserve(frameHeaderSize(payload) + payload);
    appendFrameHeader(*frame, Opcode::kText, payload);
    frame->append(prefix);
    for (std::size_t i = first; i < last; ++i) {
      if (i > first) frame->push_back(',');
      frame->append(entries[i]->json);
    }
    frame->append(suffix);
    frames.push_back(std::move(frame));
  }
  return frames;
}

const std::vector<SharedBytes>& UpdateFrames::allFrames() {
  std::call_once(all_once_, [this] {
    std::vector<const events::UpdateEntry*> entries;
    entries.reserve(batch_->entries().size());
    for (const auto& entry : batch_->entries()) entries.push_back(&entry);
    all_frames_ = renderUpdateFrames(batch_->kind(), entries);
  });
  return all_frames_;
}

std::vector<SharedBytes> UpdateFrames::framesFor(const Subscription& subscription) {
  if (subscription.empty() || batch_->empty()) return {};
  if (subscription.all()) return allFrames();
  const auto& all = batch_->entries();
  std::vector<const events::UpdateEntry*> entries;
  // A few ids: look each up (binary search); many: one pass over the batch.
  if (subscription.ids().size() * 16 < all.size()) {
    for (const auto id : subscription.ids()) {
      const auto [first, last] = batch_->rangeOf(id);
      for (auto i = first; i < last; ++i) entries.push_back(&all[i]);
    }
  } else {
    for (const auto& entry : all) {
      if (subscription.contains(entry.item_id)) entries.push_back(&entry);
    }
  }
  if (entries.empty()) return {};
  return renderUpdateFrames(batch_->kind(), entries);
}

}  // namespace skinpulse::ws
