#pragma once

// PollStateSource: who can tell how each source's polls went (the ingest module), as
// GET /api/v1/sources reads it. Defined here, the lower layer: quality must not include
// ingest, so the ingest module provides this interface in the registry
// (module/Registry.hpp) and the quality module requires it.

#include "quality/PollState.hpp"

namespace skinpulse::quality {

class PollStateSource {
 public:
  virtual ~PollStateSource() = default;
  /// Every polled source's last success and failures since (empty before ingest starts).
  virtual PollStates pollStates() const = 0;
};

}  // namespace skinpulse::quality
