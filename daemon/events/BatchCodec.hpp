#pragma once

// BatchCodec: an UpdateBatch as one Redis pub/sub message, tagged with the publishing
// instance so an instance can skip its own batches (it delivered them locally already).
//
//   skinpulse-live 1\n<origin>\n<kind> <cycle>\n<item_id> <json>\n<item_id> <json>\n...
//
// Entries are single-line JSON: a raw newline can only be whitespace between JSON
// tokens (strings escape it), so encoding turns any into a space without changing the
// value.

#include "events/UpdateBatch.hpp"

#include <optional>
#include <string>
#include <string_view>

namespace skinpulse::events {

struct WireBatch {
  std::string origin;
  UpdateBatchPtr batch;
};

std::string encodeBatch(const std::string& origin, const UpdateBatch& batch);

/// nullopt when `message` is not a well-formed batch (a foreign publisher on the
/// channel, a newer format): it is ignored.
std::optional<WireBatch> decodeBatch(std::string_view message);

}  // namespace skinpulse::events
