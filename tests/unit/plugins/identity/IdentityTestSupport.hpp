#pragma once

// Helpers shared by the identity plugin tests.

#include "mocks/Fixture.hpp"
#include "mocks/MockHost.hpp"

#include <optional>
#include <string>

namespace identity_test {

using skinpulse::test::fixture;

inline std::optional<std::string> field(const skinpulse::sdk::Fields& fields,
                                        const std::string& name) {
  for (const auto& [key, value] : fields) {
    if (key == name) return value;
  }
  return std::nullopt;
}

inline skinpulse::sdk::HttpResponse answer(int status, std::string body) {
  return skinpulse::test::MockHttp::ok(std::move(body), status);
}

/// JSON nested `depth` arrays deep: hostile input for the parser's depth limit.
inline std::string deepJson(std::size_t depth) {
  return std::string(depth, '[') + std::string(depth, ']');
}

}  // namespace identity_test
