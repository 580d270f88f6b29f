#pragma once

// Helpers shared by the market-source tests: fixture loading and a MockHost preset.

#include "mocks/MockHost.hpp"

#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>

namespace sources_test {

inline std::string fixture(const std::string& name) {
  std::ifstream in(std::string(SKINPULSE_FIXTURE_DIR) + "/" + name, std::ios::binary);
  if (!in) throw std::runtime_error("missing fixture " + name);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

inline skinpulse::sdk::HttpResponse status(int code, std::string body = "",
                                           skinpulse::sdk::Fields headers = {}) {
  return skinpulse::test::MockHttp::ok(std::move(body), code, std::move(headers));
}

}  // namespace sources_test
