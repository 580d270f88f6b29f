#include "common/Json.hpp"

#include <Poco/JSON/Array.h>
#include <Poco/JSON/Parser.h>
#include <cppunit/extensions/HelperMacros.h>

using namespace skinpulse;

class JsonTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(JsonTest);
  CPPUNIT_TEST(writesNestedStructures);
  CPPUNIT_TEST(escapesControlCharactersAndKeepsUnicode);
  CPPUNIT_TEST(replacesInvalidUtf8);
  CPPUNIT_TEST(doublesRoundTripAndNonFiniteIsNull);
  CPPUNIT_TEST_SUITE_END();

 public:
  void writesNestedStructures() {
    common::JsonWriter json;
    json.beginObject()
        .key("a")
        .value(1)
        .key("b")
        .beginArray()
        .value("x")
        .value(true)
        .null()
        .endArray()
        .key("c")
        .beginObject()
        .endObject()
        .endObject();
    CPPUNIT_ASSERT_EQUAL(std::string(R"({"a":1,"b":["x",true,null],"c":{}})"), json.str());
  }

  void escapesControlCharactersAndKeepsUnicode() {
    std::string out;
    common::appendJsonString(out, "★ StatTrak™ \"q\" \\ \n\x01");
    CPPUNIT_ASSERT_EQUAL(std::string("\"★ StatTrak™ \\\"q\\\" \\\\ \\n\\u0001\""), out);
    Poco::JSON::Parser parser;
    const auto parsed = parser.parse("[" + out + "]").extract<Poco::JSON::Array::Ptr>();
    CPPUNIT_ASSERT_EQUAL(std::string("★ StatTrak™ \"q\" \\ \n\x01"),
                         parsed->getElement<std::string>(0));
  }

  void replacesInvalidUtf8() {
    std::string out;
    common::appendJsonString(out,
                             "a\xff"
                             "b\xc3");
    CPPUNIT_ASSERT_EQUAL(std::string("\"a\xEF\xBF\xBD"
                                     "b\xEF\xBF\xBD\""),
                         out);
    out.clear();
    common::appendJsonString(out, "\xed\xa0\x80");  // an encoded surrogate is not UTF-8
    CPPUNIT_ASSERT(out.find("\xEF\xBF\xBD") != std::string::npos);
  }

  void doublesRoundTripAndNonFiniteIsNull() {
    common::JsonWriter json;
    json.beginArray().value(0.1).value(2.0).value(1.0 / 0.0).endArray();
    CPPUNIT_ASSERT_EQUAL(std::string("[0.1,2,null]"), json.str());
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(JsonTest);
