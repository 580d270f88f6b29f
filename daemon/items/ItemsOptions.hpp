#pragma once

// ItemsOptions: what the items feature reads of the configuration, filled by app/ from
// the validated Settings.

#include <string>
#include <vector>

namespace skinpulse::items {

struct ItemsOptions {
  std::string base_url;                        ///< for Link headers
  std::vector<std::string> reference_sources;  ///< [metrics] reference_sources
  std::vector<std::string> enabled_sources;    ///< in configuration order
};

}  // namespace skinpulse::items
