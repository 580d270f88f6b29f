#include "ws/UpdateFrames.hpp"

#include "ws/Frame.hpp"

#include <algorithm>

namespace skinpulse::ws {
namespace {

constexpr std::string_view kSuffix = "]}";

std::string framePrefix(const std::string& kind) { return R"({"type":")" + kind + R"(","data":[)"; }

// Appends frames of `entries` (any range of entry pointers or indices resolved by `at`)
// to `out`, at most kMaxEntriesPerFrame per frame, sized exactly before writing.
template <typename At>
void appendFrames(std::string& out, std::string_view prefix, std::size_t count, At at) {
  std::size_t total = 0;
  for (std::size_t i = 0; i < count; ++i) total += at(i).json.size();
  const std::size_t frames =
      (count + UpdateFrames::kMaxEntriesPerFrame - 1) / UpdateFrames::kMaxEntriesPerFrame;
  out.reserve(out.size() + total + frames * (prefix.size() + kSuffix.size() + 10) + count);
  for (std::size_t first = 0; first < count; first += UpdateFrames::kMaxEntriesPerFrame) {
    const std::size_t last = std::min(count, first + UpdateFrames::kMaxEntriesPerFrame);
    std::size_t payload = prefix.size() + kSuffix.size() + (last - first - 1);
    for (std::size_t i = first; i < last; ++i) payload += at(i).json.size();
    appendFrameHeader(out, Opcode::kText, payload);
    out.append(prefix);
    for (std::size_t i = first; i < last; ++i) {
      if (i > first) out.push_back(',');
      out.append(at(i).json);
    }
    out.append(kSuffix);
  }
}

}  // namespace

std::vector<SharedBytes> renderUpdateFrames(
    const std::string& kind, const std::vector<const events::UpdateEntry*>& entries) {
  std::vector<SharedBytes> frames;
  const std::string prefix = framePrefix(kind);
  for (std::size_t first = 0; first < entries.size(); first += UpdateFrames::kMaxEntriesPerFrame) {
    const std::size_t count = std::min(entries.size() - first, UpdateFrames::kMaxEntriesPerFrame);
    auto frame = std::make_shared<std::string>();
    appendFrames(*frame, prefix, count,
                 [&](std::size_t i) -> const events::UpdateEntry& { return *entries[first + i]; });
    frames.push_back(std::move(frame));
  }
  return frames;
}

UpdateFrames::UpdateFrames(events::UpdateBatchPtr batch)
    : batch_(std::move(batch)), prefix_(framePrefix(batch_->kind())) {}

const std::vector<SharedBytes>& UpdateFrames::allFrames() {
  std::call_once(all_once_, [this] {
    std::vector<const events::UpdateEntry*> entries;
    entries.reserve(batch_->entries().size());
    for (const auto& entry : batch_->entries()) entries.push_back(&entry);
    all_frames_ = renderUpdateFrames(batch_->kind(), entries);
  });
  return all_frames_;
}

const std::vector<std::uint32_t>& UpdateFrames::pick(const Subscription& subscription) const {
  // Reused per thread: a reactor calls this for each of its clients, and most clients
  // need a handful of entries.
  thread_local std::vector<std::uint32_t> picked;
  picked.clear();
  const auto& all = batch_->entries();
  const auto& ids = subscription.ids();  // sorted
  if (ids.size() * 16 < all.size()) {
    for (const auto id : ids) {
      const auto [first, last] = batch_->rangeOf(id);
      for (auto i = first; i < last; ++i) picked.push_back(static_cast<std::uint32_t>(i));
    }
  } else {
    // Many ids: one merge pass over both sorted sequences.
    auto id = ids.begin();
    for (std::size_t i = 0; i < all.size() && id != ids.end(); ++i) {
      while (id != ids.end() && *id < all[i].item_id) ++id;
      if (id != ids.end() && *id == all[i].item_id) picked.push_back(static_cast<std::uint32_t>(i));
    }
  }
  return picked;
}

void UpdateFrames::appendFramesFor(const Subscription& subscription, std::string& out) const {
  if (subscription.empty() || subscription.all() || batch_->empty()) return;
  const auto& all = batch_->entries();
  const auto& picked = pick(subscription);
  if (picked.empty()) return;
  appendFrames(out, prefix_, picked.size(),
               [&](std::size_t i) -> const events::UpdateEntry& { return all[picked[i]]; });
}

std::vector<SharedBytes> UpdateFrames::framesFor(const Subscription& subscription) {
  if (subscription.empty() || batch_->empty()) return {};
  if (subscription.all()) return allFrames();
  std::vector<const events::UpdateEntry*> entries;
  for (const auto index : pick(subscription)) entries.push_back(&batch_->entries()[index]);
  return renderUpdateFrames(batch_->kind(), entries);
}

}  // namespace skinpulse::ws
