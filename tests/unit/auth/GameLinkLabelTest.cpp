#include "auth/GameLinkLabel.hpp"
#include "common/JsonBody.hpp"

#include <cppunit/extensions/HelperMacros.h>

using namespace skinpulse;

class GameLinkLabelTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(GameLinkLabelTest);
  CPPUNIT_TEST(testLabelsTaken);
  CPPUNIT_TEST(testFortyCodePointsNotBytes);
  CPPUNIT_TEST(testUnprintableOrInvalidUtf8Refused);
  CPPUNIT_TEST(testBodiesRefused);
  CPPUNIT_TEST_SUITE_END();

 public:
  void testLabelsTaken() {
    CPPUNIT_ASSERT_EQUAL(std::string("storage"),
                         auth::parseGameLinkLabel(R"({"label":"storage"})"));
    CPPUNIT_ASSERT_EQUAL(std::string(""), auth::parseGameLinkLabel(R"({"label":""})"));
    CPPUNIT_ASSERT_EQUAL(std::string("Trade ✓ 交易"),
                         auth::parseGameLinkLabel(R"({"label":"Trade \u2713 交易"})"));
  }

  void testFortyCodePointsNotBytes() {
    std::string forty;
    for (int i = 0; i < 40; ++i) forty += "é";  // 80 bytes
    CPPUNIT_ASSERT(auth::isPrintableLabel(forty, 40));
    CPPUNIT_ASSERT(!auth::isPrintableLabel(forty + "x", 40));
    CPPUNIT_ASSERT(auth::isPrintableLabel(std::string(40, 'x'), 40));
    CPPUNIT_ASSERT(!auth::isPrintableLabel(std::string(41, 'x'), 40));
    CPPUNIT_ASSERT(auth::isPrintableLabel("🎯 main", 40));  // four-byte sequences count once
  }

  void testUnprintableOrInvalidUtf8Refused() {
    for (const std::string& bad :
         {std::string("tab\there"), std::string("nul\0x", 5), std::string("del\x7f"),
          std::string("c1\xc2\x85"), std::string("cut\xc3"), std::string("overlong\xc0\xaf"),
          std::string("surrogate\xed\xa0\x80"), std::string("stray\x80")}) {
      CPPUNIT_ASSERT_MESSAGE(bad, !auth::isPrintableLabel(bad, 40));
    }
  }

  void testBodiesRefused() {
    CPPUNIT_ASSERT_THROW(auth::parseGameLinkLabel("label=x"), common::MalformedBody);
    CPPUNIT_ASSERT_THROW(auth::parseGameLinkLabel("[1]"), common::MalformedBody);
    for (const char* body : {R"({})", R"({"label":7})", R"({"label":null})",
                             R"({"label":"a","other":1})", R"({"label":"a\tb"})"}) {
      CPPUNIT_ASSERT_THROW_MESSAGE(body, auth::parseGameLinkLabel(body), common::InvalidField);
    }
    CPPUNIT_ASSERT_THROW(auth::parseGameLinkLabel(R"({"label":")" + std::string(41, 'x') + "\"}"),
                         common::InvalidField);
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(GameLinkLabelTest);
