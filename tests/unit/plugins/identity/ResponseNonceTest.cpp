#include "ResponseNonce.hpp"

#include <cppunit/extensions/HelperMacros.h>

#include <string>

using namespace skinpulse::plugins::openid2;

namespace {
constexpr std::int64_t kNow = 1795342500;  // 2026-11-22T10:15:00Z
}

class ResponseNonceTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(ResponseNonceTest);
  CPPUNIT_TEST(parsesTheTimestamp);
  CPPUNIT_TEST(refusesMalformedNonces);
  CPPUNIT_TEST(freshnessWindow);
  CPPUNIT_TEST(replayWindowCoversEveryAcceptableNonce);
  CPPUNIT_TEST_SUITE_END();

 public:
  void parsesTheTimestamp() {
    CPPUNIT_ASSERT_EQUAL(kNow, nonceTime("2026-11-22T10:15:00ZUNIQUE").value_or(-1));
    CPPUNIT_ASSERT_EQUAL(kNow, nonceTime("2026-11-22T10:15:00Z").value_or(-1));
    CPPUNIT_ASSERT_EQUAL(std::int64_t{0}, nonceTime("1970-01-01T00:00:00Zx").value_or(-1));
    CPPUNIT_ASSERT_EQUAL(std::int64_t{951782400}, nonceTime("2000-02-29T00:00:00Za").value_or(-1));
  }

  void refusesMalformedNonces() {
    CPPUNIT_ASSERT(!nonceTime(""));
    CPPUNIT_ASSERT(!nonceTime("2026-11-22T10:15:00"));
    CPPUNIT_ASSERT(!nonceTime("2026-11-22 10:15:00Zx"));
    CPPUNIT_ASSERT(!nonceTime("2026-13-22T10:15:00Zx"));
    CPPUNIT_ASSERT(!nonceTime("2026-02-29T10:15:00Zx"));
    CPPUNIT_ASSERT(!nonceTime("2026-11-22T24:15:00Zx"));
    CPPUNIT_ASSERT(!nonceTime("2026-11-22T10:15:00+01:00"));
    CPPUNIT_ASSERT(!nonceTime("2026-11-22T10:15:00Zwith space"));
    CPPUNIT_ASSERT(!nonceTime("2026-11-22T10:15:00Z\x01"));
    CPPUNIT_ASSERT(!nonceTime("2026-1a-22T10:15:00Zx"));
    CPPUNIT_ASSERT(!nonceTime("2026-11-22T10:15:00Z" + std::string(236, 'a')));
    CPPUNIT_ASSERT(nonceTime("2026-11-22T10:15:00Z" + std::string(235, 'a')));
  }

  void freshnessWindow() {
    CPPUNIT_ASSERT(isFreshNonce("2026-11-22T10:15:00Zn", kNow));
    CPPUNIT_ASSERT(isFreshNonce("2026-11-22T10:10:00Zn", kNow));   // exactly 300 s old
    CPPUNIT_ASSERT(!isFreshNonce("2026-11-22T10:09:59Zn", kNow));  // 301 s old
    CPPUNIT_ASSERT(isFreshNonce("2026-11-22T10:16:00Zn", kNow));   // 60 s ahead
    CPPUNIT_ASSERT(!isFreshNonce("2026-11-22T10:16:01Zn", kNow));
    CPPUNIT_ASSERT(!isFreshNonce("2026-01-01T00:00:00ZUNIQUE", kNow));
    CPPUNIT_ASSERT(!isFreshNonce("garbage", kNow));
  }

  void replayWindowCoversEveryAcceptableNonce() {
    CPPUNIT_ASSERT(kMaxAgeSeconds + kMaxFutureSeconds < kReplayWindowSeconds);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{600}, kReplayWindowSeconds);
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(ResponseNonceTest);
