#pragma once

// What the scheduler says of each polled source, as GET /api/v1/sources shows it
// (docs/api.md §12, §19). Its own header: the ingest module fills it without the HTTP
// layer that QualityApi.hpp brings in.

#include <cstdint>
#include <map>
#include <optional>
#include <string>

namespace skinpulse::quality {

/// One polled source.
struct PollState {
  std::optional<std::int64_t> last_success;  ///< its last successful poll in this process
  std::int64_t consecutive_failures = 0;     ///< polls failed since (0: the last one worked)
};

/// Every polled source's PollState, by name.
using PollStates = std::map<std::string, PollState>;

}  // namespace skinpulse::quality
