#include "common/Log.hpp"

#include <cppunit/extensions/HelperMacros.h>
#include <spdlog/sinks/ostream_sink.h>

#include <algorithm>
#include <sstream>

using namespace skinpulse;

class LogTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(LogTest);
  CPPUNIT_TEST(testTextEscapesControlBytes);
  CPPUNIT_TEST(testJsonEscapesControlBytes);
  CPPUNIT_TEST_SUITE_END();

 public:
  void tearDown() override { log::configure("info", log::Format::kText); }

  void testTextEscapesControlBytes() {
    const std::string line = logged(log::Format::kText);
    // One line only: the forged second entry stays inside the first.
    CPPUNIT_ASSERT_EQUAL(std::string::size_type{1}, countOf(line, '\n'));
    CPPUNIT_ASSERT_MESSAGE(line,
                           line.find("GET /a\\r\\n2026-01-01T00:00:00.000Z INFO  [access] "
                                     "forged\\x1b[31m\\x7f\\x00 Redline ★") != std::string::npos);
  }

  void testJsonEscapesControlBytes() {
    const std::string line = logged(log::Format::kJson);
    CPPUNIT_ASSERT_EQUAL(std::string::size_type{1}, countOf(line, '\n'));
    CPPUNIT_ASSERT_MESSAGE(line, line.find(R"(GET /a\u000d\u000a2026)") != std::string::npos);
    CPPUNIT_ASSERT_MESSAGE(
        line, line.find(R"(forged\u001b[31m\u007f\u0000 Redline ★")") != std::string::npos);
  }

 private:
  static std::string logged(log::Format format) {
    std::ostringstream out;
    log::configure("info", format, std::make_shared<spdlog::sinks::ostream_sink_mt>(out));
    const std::string path(
        "/a\r\n2026-01-01T00:00:00.000Z INFO  [access] forged\x1b[31m\x7f\0 Redline ★", 69);
    log::access().info("GET {}", path);
    log::access().flush();
    return out.str();
  }
  static std::string::size_type countOf(const std::string& text, char c) {
    return static_cast<std::string::size_type>(std::count(text.begin(), text.end(), c));
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(LogTest);
