// Test plugin: right ABI version, but a build signature of another toolchain (the old
// libstdc++ string ABI): std::string would not cross the boundary safely.

#include "skinpulse/sdk/version.hpp"

#undef SKINPULSE_SDK_BUILD_SIGNATURE
#define SKINPULSE_SDK_BUILD_SIGNATURE "skinpulse-sdk/1 gcc cxx11abi=0 ptr=8"

#include "skinpulse/sdk/sdk.hpp"

namespace {

namespace sdk = skinpulse::sdk;

class OldAbiSource final : public sdk::MarketSource {
 public:
  explicit OldAbiSource(sdk::Host&) {}

  sdk::FetchResult fetch() override { return {}; }
};

}  // namespace

SKINPULSE_DECLARE_PLUGIN(MarketSource, OldAbiSource, "badsig", "1.0.0", "foreign toolchain",
                         nullptr)
