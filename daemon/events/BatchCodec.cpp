#include "events/BatchCodec.hpp"

#include <algorithm>
#include <charconv>

namespace skinpulse::events {
namespace {

constexpr std::string_view kMagic = "skinpulse-live 1";

// The next line of `text` (without '\n'); nullopt when no newline is left.
std::optional<std::string_view> takeLine(std::string_view& text) {
  const auto end = text.find('\n');
  if (end == std::string_view::npos) return std::nullopt;
  const auto line = text.substr(0, end);
  text.remove_prefix(end + 1);
  return line;
}

}  // namespace

std::string encodeBatch(const std::string& origin, const UpdateBatch& batch) {
  std::size_t size = kMagic.size() + origin.size() + batch.kind().size() + 3;
  for (const auto& entry : batch.entries()) size += entry.json.size() + 22;
  std::string out;
  out.reserve(size);
  out.append(kMagic).append(1, '\n').append(origin).append(1, '\n');
  out.append(batch.kind()).append(1, ' ').append(std::to_string(batch.cycle())).append(1, '\n');
  for (const auto& entry : batch.entries()) {
    out.append(std::to_string(entry.item_id)).append(1, ' ');
    const std::size_t start = out.size();
    out.append(entry.json);
    std::replace(out.begin() + static_cast<std::ptrdiff_t>(start), out.end(), '\n', ' ');
    out.append(1, '\n');
  }
  return out;
}

std::optional<WireBatch> decodeBatch(std::string_view message) {
  const auto magic = takeLine(message);
  if (!magic || *magic != kMagic) return std::nullopt;
  const auto origin = takeLine(message);
  const auto header = takeLine(message);
  if (!origin || !header || origin->empty()) return std::nullopt;
  const auto separator = header->find(' ');
  if (separator == 0 || separator == std::string_view::npos) return std::nullopt;
  const auto kind = header->substr(0, separator);
  std::int64_t cycle = 0;
  const auto* cycle_end = header->data() + header->size();
  const auto cycle_parsed = std::from_chars(header->data() + separator + 1, cycle_end, cycle);
  if (cycle_parsed.ec != std::errc() || cycle_parsed.ptr != cycle_end) return std::nullopt;
  std::vector<UpdateEntry> entries;
  while (!message.empty()) {
    const auto line = takeLine(message);
    if (!line) return std::nullopt;
    const auto space = line->find(' ');
    if (space == std::string_view::npos || space + 1 == line->size()) return std::nullopt;
    UpdateEntry entry;
    const auto* first = line->data();
    const auto* last = line->data() + space;
    const auto parsed = std::from_chars(first, last, entry.item_id);
    if (parsed.ec != std::errc() || parsed.ptr != last || entry.item_id <= 0) return std::nullopt;
    entry.json.assign(line->substr(space + 1));
    entries.push_back(std::move(entry));
  }
  return WireBatch{std::string(*origin), std::make_shared<const UpdateBatch>(
                                             std::string(kind), std::move(entries), cycle)};
}

}  // namespace skinpulse::events
