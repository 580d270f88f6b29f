#pragma once

// The upstream samples under tests/fixtures (SKINPULSE_FIXTURE_DIR, set by
// tests/unit/CMakeLists.txt for every unit binary).

#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>

namespace skinpulse::test {

/// The bytes of fixture `name`; throws std::runtime_error naming it when it is missing.
inline std::string fixture(const std::string& name) {
  std::ifstream in(std::string(SKINPULSE_FIXTURE_DIR) + "/" + name, std::ios::binary);
  if (!in) throw std::runtime_error("missing fixture " + name);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

}  // namespace skinpulse::test
