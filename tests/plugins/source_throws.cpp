// Test plugin: a source whose constructor refuses its configuration by throwing. The
// SDK's factory turns that into create()'s error message.

#include "skinpulse/sdk/sdk.hpp"

#include <stdexcept>

namespace {

namespace sdk = skinpulse::sdk;

class ThrowingSource final : public sdk::MarketSource {
 public:
  explicit ThrowingSource(sdk::Host&) { throw std::runtime_error("boom: bad upstream config"); }

  sdk::FetchResult fetch() override { return {}; }
};

}  // namespace

SKINPULSE_DECLARE_PLUGIN(MarketSource, ThrowingSource, "throws", "1.0.0", "throws in create",
                         nullptr)
