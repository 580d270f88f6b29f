// Test plugin: built against a future SDK whose ABI major is 2. The daemon (ABI 1.x) must
// refuse it before calling anything but the entry point.

#include "skinpulse/sdk/version.hpp"

#undef SKINPULSE_SDK_ABI_MAJOR
#define SKINPULSE_SDK_ABI_MAJOR 2

#include "skinpulse/sdk/sdk.hpp"

namespace {

namespace sdk = skinpulse::sdk;

class FutureSource final : public sdk::MarketSource {
 public:
  explicit FutureSource(sdk::Host&) {}

  sdk::FetchResult fetch() override { return {}; }
};

}  // namespace

SKINPULSE_DECLARE_PLUGIN(MarketSource, FutureSource, "wrongabi", "2.0.0", "built for SDK ABI 2",
                         nullptr)
