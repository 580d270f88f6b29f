#pragma once

// Helpers shared by the market-source tests: fixture loading and a MockHost preset.

#include "mocks/Fixture.hpp"
#include "mocks/MockHost.hpp"

#include <string>

namespace sources_test {

using skinpulse::test::fixture;

inline skinpulse::sdk::HttpResponse status(int code, std::string body = "",
                                           skinpulse::sdk::Fields headers = {}) {
  return skinpulse::test::MockHttp::ok(std::move(body), code, std::move(headers));
}

}  // namespace sources_test
