// Test plugin: built as source_misnamed.so, but its descriptor calls it 'renamed'.

#include "skinpulse/sdk/sdk.hpp"

namespace {

namespace sdk = skinpulse::sdk;

class RenamedSource final : public sdk::MarketSource {
 public:
  explicit RenamedSource(sdk::Host&) {}

  sdk::FetchResult fetch() override { return {}; }
};

}  // namespace

SKINPULSE_DECLARE_PLUGIN(MarketSource, RenamedSource, "renamed", "1.0.0", "file name disagrees",
                         nullptr)
