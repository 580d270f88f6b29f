#include "common/Time.hpp"

#include <cppunit/extensions/HelperMacros.h>

using namespace skinpulse::time;

class TimeTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(TimeTest);
  CPPUNIT_TEST(formatsWholeSecondsUtc);
  CPPUNIT_TEST(parsesWhatItFormats);
  CPPUNIT_TEST(acceptsFractionsAndUtcOffset);
  CPPUNIT_TEST(refusesMalformedTimes);
  CPPUNIT_TEST_SUITE_END();

 public:
  void formatsWholeSecondsUtc() {
    CPPUNIT_ASSERT_EQUAL(std::string("1970-01-01T00:00:00Z"), formatIso8601(0));
    CPPUNIT_ASSERT_EQUAL(std::string("2026-11-22T10:15:00Z"), formatIso8601(1795342500));
    CPPUNIT_ASSERT_EQUAL(std::string("2024-02-29T23:59:59Z"), formatIso8601(1709251199));
  }

  void parsesWhatItFormats() {
    for (std::int64_t t :
         {INT64_C(0), INT64_C(951782400), INT64_C(1709251199), INT64_C(4102444800)}) {
      CPPUNIT_ASSERT_EQUAL(t, *parseIso8601(formatIso8601(t)));
    }
  }

  void acceptsFractionsAndUtcOffset() {
    CPPUNIT_ASSERT_EQUAL(INT64_C(1795342500), *parseIso8601("2026-11-22T10:15:00.999Z"));
    CPPUNIT_ASSERT_EQUAL(INT64_C(1795342500), *parseIso8601("2026-11-22T10:15:00+00:00"));
  }

  void refusesMalformedTimes() {
    for (const char* bad :
         {"", "2026-11-22", "2026-11-22T10:15:00", "2026-13-01T00:00:00Z", "2026-02-30T00:00:00Z",
          "2026-11-22T25:00:00Z", "2026-11-22T10:15:00+02:00", "2026-11-22T10:15:00.Z",
          "x026-11-22T10:15:00Z", "2026-11-22T10:15:00Zjunk"}) {
      CPPUNIT_ASSERT_MESSAGE(bad, !parseIso8601(bad));
    }
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(TimeTest);
