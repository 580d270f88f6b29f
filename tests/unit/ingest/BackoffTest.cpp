#include "ingest/Backoff.hpp"

#include <cppunit/extensions/HelperMacros.h>

using skinpulse::ingest::backoffSeconds;

class BackoffTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(BackoffTest);
  CPPUNIT_TEST(testFailuresDoubleUpToFiveMinutes);
  CPPUNIT_TEST(testLongIntervalIsItsOwnCap);
  CPPUNIT_TEST(testRetryAfterIsHonouredUpToAnHour);
  CPPUNIT_TEST_SUITE_END();

 public:
  void testFailuresDoubleUpToFiveMinutes() {
    CPPUNIT_ASSERT_EQUAL(std::int64_t{60}, backoffSeconds(60, 1, std::nullopt));
    CPPUNIT_ASSERT_EQUAL(std::int64_t{120}, backoffSeconds(60, 2, std::nullopt));
    CPPUNIT_ASSERT_EQUAL(std::int64_t{240}, backoffSeconds(60, 3, std::nullopt));
    // Before the amendment this went on to 480, 960, … 3600 s: a recovered market stayed
    // dark for most of an hour.
    CPPUNIT_ASSERT_EQUAL(std::int64_t{300}, backoffSeconds(60, 4, std::nullopt));
    CPPUNIT_ASSERT_EQUAL(std::int64_t{300}, backoffSeconds(60, 1000, std::nullopt));
    CPPUNIT_ASSERT_EQUAL(std::int64_t{300}, backoffSeconds(15, 60, std::nullopt));
  }

  void testLongIntervalIsItsOwnCap() {
    // A source polled every 10 minutes never waits longer than its interval.
    CPPUNIT_ASSERT_EQUAL(std::int64_t{600}, backoffSeconds(600, 1, std::nullopt));
    CPPUNIT_ASSERT_EQUAL(std::int64_t{600}, backoffSeconds(600, 9, std::nullopt));
  }

  void testRetryAfterIsHonouredUpToAnHour() {
    CPPUNIT_ASSERT_EQUAL(std::int64_t{600}, backoffSeconds(60, 1, 600));
    CPPUNIT_ASSERT_EQUAL(std::int64_t{60}, backoffSeconds(60, 1, 5));  // at least an interval
    CPPUNIT_ASSERT_EQUAL(std::int64_t{3600}, backoffSeconds(60, 1, 86400));
    CPPUNIT_ASSERT_EQUAL(std::int64_t{3600}, backoffSeconds(60, 7, 3600));
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(BackoffTest);
