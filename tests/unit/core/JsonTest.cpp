#include "http/Json.hpp"
#include "http/QueryString.hpp"

#include <Poco/JSON/Array.h>
#include <Poco/JSON/Parser.h>
#include <cppunit/extensions/HelperMacros.h>

using namespace skinpulse::http;

class JsonTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(JsonTest);
  CPPUNIT_TEST(writesNestedStructures);
  CPPUNIT_TEST(escapesControlCharactersAndKeepsUnicode);
  CPPUNIT_TEST(replacesInvalidUtf8);
  CPPUNIT_TEST(doublesRoundTripAndNonFiniteIsNull);
  CPPUNIT_TEST(queryStringsDecode);
  CPPUNIT_TEST_SUITE_END();

 public:
  void writesNestedStructures() {
    JsonWriter json;
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
    appendJsonString(out, "★ StatTrak™ \"q\" \\ \n\x01");
    CPPUNIT_ASSERT_EQUAL(std::string("\"★ StatTrak™ \\\"q\\\" \\\\ \\n\\u0001\""), out);
    Poco::JSON::Parser parser;
    const auto parsed = parser.parse("[" + out + "]").extract<Poco::JSON::Array::Ptr>();
    CPPUNIT_ASSERT_EQUAL(std::string("★ StatTrak™ \"q\" \\ \n\x01"),
                         parsed->getElement<std::string>(0));
  }

  void replacesInvalidUtf8() {
    std::string out;
    appendJsonString(out,
                     "a\xff"
                     "b\xc3");
    CPPUNIT_ASSERT_EQUAL(std::string("\"a\xEF\xBF\xBD"
                                     "b\xEF\xBF\xBD\""),
                         out);
    out.clear();
    appendJsonString(out, "\xed\xa0\x80");  // an encoded surrogate is not UTF-8
    CPPUNIT_ASSERT(out.find("\xEF\xBF\xBD") != std::string::npos);
  }

  void doublesRoundTripAndNonFiniteIsNull() {
    JsonWriter json;
    json.beginArray().value(0.1).value(2.0).value(1.0 / 0.0).endArray();
    CPPUNIT_ASSERT_EQUAL(std::string("[0.1,2,null]"), json.str());
  }

  void queryStringsDecode() {
    const auto params = parseQuery("q=%E2%98%85+Karambit&limit=5&flag&=x");
    CPPUNIT_ASSERT(params);
    CPPUNIT_ASSERT_EQUAL(std::size_t(4), params->size());
    CPPUNIT_ASSERT_EQUAL(std::string("★ Karambit"), (*params)[0].second);
    CPPUNIT_ASSERT_EQUAL(std::string("flag"), (*params)[2].first);
    CPPUNIT_ASSERT_EQUAL(std::string(""), (*params)[2].second);
    // Escapes decode to bytes; whether they are UTF-8 is the parameter's check.
    CPPUNIT_ASSERT_EQUAL(std::string("\xE2\x98"), (*parseQuery("q=%E2%98"))[0].second);
    CPPUNIT_ASSERT(!parseQuery("q=%zz"));
    CPPUNIT_ASSERT(!parseQuery("q=%4"));
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(JsonTest);
