#pragma once

// The daemon-wide services every plugin instance's Host hands out. The daemon owns them;
// they must outlive every instance created with them.

#include "skinpulse/sdk/host.hpp"

#include "plugin/SystemClock.hpp"

namespace skinpulse::plugin {

struct HostServices {
  sdk::HttpClient& http;
  const sdk::Catalog& catalog;
  const sdk::Clock& clock = systemClock();  ///< replaceable in tests
};

}  // namespace skinpulse::plugin
