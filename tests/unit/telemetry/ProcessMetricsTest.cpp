#include "telemetry/ProcessMetrics.hpp"

#include <cppunit/extensions/HelperMacros.h>

#include <string>

using namespace skinpulse::telemetry;

class ProcessMetricsTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(ProcessMetricsTest);
  CPPUNIT_TEST(statFieldsAfterTheLastParenthesis);
  CPPUNIT_TEST(truncatedStatIsRefused);
  CPPUNIT_TEST(bootTime);
  CPPUNIT_TEST(thisProcess);
  CPPUNIT_TEST_SUITE_END();

 public:
  void statFieldsAfterTheLastParenthesis() {
    // A command name with a space and a ')' in it: fields count from the last ')'.
    const std::string stat =
        "4242 (skin) pulsed) S 1 4242 4242 0 -1 4194560 1234 0 0 0 250 75 0 0 20 0 17 0 "
        "98765 123456789 2048 18446744073709551615 1 1 0 0 0 0 0 4096 0 0 0 0 17 1 0 0 0 0 0";
    const auto fields = parseStat(stat);
    CPPUNIT_ASSERT(fields.has_value());
    CPPUNIT_ASSERT_DOUBLES_EQUAL(250.0, fields->utime_ticks, 0);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(75.0, fields->stime_ticks, 0);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(17.0, fields->threads, 0);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(98765.0, fields->start_ticks, 0);
  }

  void truncatedStatIsRefused() {
    CPPUNIT_ASSERT(!parseStat("4242 (skinpulsed) S 1 4242").has_value());
    CPPUNIT_ASSERT(!parseStat("no parenthesis").has_value());
    CPPUNIT_ASSERT(!parseStat("1 (x) S 1 1 1 0 -1 0 0 0 0 0 abc 1 0 0 20 0 1 0 5").has_value());
  }

  void bootTime() {
    const std::string stat = "cpu  1 2 3 4\nintr 5\nctxt 6\nbtime 1764000000\nprocesses 7\n";
    CPPUNIT_ASSERT_DOUBLES_EQUAL(1764000000.0, *parseBootTime(stat), 0);
    CPPUNIT_ASSERT(!parseBootTime("cpu 1\n").has_value());
  }

  void thisProcess() {
    const auto sample = readProcess();
    CPPUNIT_ASSERT(sample.has_value());
    CPPUNIT_ASSERT(sample->resident_bytes > 1024 * 1024);
    CPPUNIT_ASSERT(sample->threads >= 1);
    CPPUNIT_ASSERT(sample->open_fds >= 3);  // stdin, stdout, stderr
    CPPUNIT_ASSERT(sample->max_fds >= sample->open_fds);
    CPPUNIT_ASSERT(sample->start_time_seconds > 1.6e9);
    CPPUNIT_ASSERT(sample->cpu_seconds >= 0);
    std::vector<CollectedFamily> families;
    collectProcess(families);
    CPPUNIT_ASSERT_EQUAL(std::size_t(6), families.size());
    CPPUNIT_ASSERT_EQUAL(std::string("skinpulse_process_cpu_seconds_total"), families.back().name);
    CPPUNIT_ASSERT(families.back().type == Type::kCounter);
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(ProcessMetricsTest);
