// StreamJsonParser: the same events whatever the pieces, escapes across piece boundaries,
// the depth and string limits, and every way a document can be incomplete or malformed.

#include "StreamJsonParser.hpp"

#include <cppunit/extensions/HelperMacros.h>

#include <string>

using skinpulse::plugins::lisskins::JsonHandler;
using skinpulse::plugins::lisskins::JsonScalar;
using skinpulse::plugins::lisskins::StreamJsonParser;

namespace {

/// Writes every event as text, so two parses compare as two strings.
class Transcript final : public JsonHandler {
 public:
  void onStartObject() override { text += "{"; }
  void onEndObject() override { text += "}"; }
  void onStartArray() override { text += "["; }
  void onEndArray() override { text += "]"; }
  void onKey(std::string_view key, bool overlong) override {
    text += "k(" + std::string(key) + (overlong ? ",cut" : "") + ")";
  }
  void onScalar(const JsonScalar& value) override {
    static const char* const kTypes[] = {"s", "n", "t", "f", "z"};
    text += std::string(kTypes[static_cast<int>(value.type)]) + "(" + std::string(value.text) +
            (value.overlong ? ",cut" : "") + ")";
  }
  std::string text;
};

struct Outcome {
  bool ok = false;
  std::string events;
  std::string error;
};

Outcome parse(std::string_view document, std::size_t step,
              StreamJsonParser::Limits limits = {32, 4096}) {
  Transcript transcript;
  StreamJsonParser parser(transcript, limits);
  bool ok = true;
  for (std::size_t at = 0; at < document.size() && ok; at += step) {
    ok = parser.feed(document.substr(at, step));
  }
  ok = ok && parser.finish();
  return {ok, transcript.text, parser.error()};
}

}  // namespace

class StreamJsonParserTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(StreamJsonParserTest);
  CPPUNIT_TEST(testSameEventsWhateverThePieces);
  CPPUNIT_TEST(testEscapesDecode);
  CPPUNIT_TEST(testScalarsAtTopLevel);
  CPPUNIT_TEST(testDepthLimit);
  CPPUNIT_TEST(testOverlongStringIsCutAndFlagged);
  CPPUNIT_TEST(testOverlongNumberIsFlagged);
  CPPUNIT_TEST(testIncompleteDocumentsFail);
  CPPUNIT_TEST(testMalformedDocumentsFail);
  CPPUNIT_TEST_SUITE_END();

 public:
  void testSameEventsWhateverThePieces() {
    const std::string document =
        "{\"last_update\":1721675822, \"items\" : [ {\"name\":\"StatTrak\\u2122 AK-47 | "
        "Redline (Field-Tested)\",\"price\":12.5,\"item_float\":-1.5e-3,\"x\":[true,false,null,"
        "{}]}, {\"name\":\"\\ud83d\\ude00 \\\"q\\\" \\/\",\"price\":0}]}\n";
    const Outcome whole = parse(document, document.size());
    CPPUNIT_ASSERT_MESSAGE(whole.error, whole.ok);
    for (std::size_t step = 1; step < 16; ++step) {
      const Outcome pieces = parse(document, step);
      CPPUNIT_ASSERT_MESSAGE(std::to_string(step) + ": " + pieces.error, pieces.ok);
      CPPUNIT_ASSERT_EQUAL(whole.events, pieces.events);
    }
  }

  void testEscapesDecode() {
    const Outcome out =
        parse(R"(["a\"b\\c\/d\n\t", "\u00e9\u2122", "\ud83d\ude00", "\ud800x"])", 1);
    CPPUNIT_ASSERT_MESSAGE(out.error, out.ok);
    CPPUNIT_ASSERT_EQUAL(std::string("[s(a\"b\\c/d\n\t)s(\xC3\xA9\xE2\x84\xA2)s(\xF0\x9F\x98\x80)"
                                     "s(\xEF\xBF\xBDx)]"),
                         out.events);
  }

  void testScalarsAtTopLevel() {
    CPPUNIT_ASSERT(parse("  42 ", 1).ok);
    CPPUNIT_ASSERT_EQUAL(std::string("n(42)"), parse("42", 1).events);  // ends with the document
    CPPUNIT_ASSERT_EQUAL(std::string("z(null)"), parse("null", 2).events);
    CPPUNIT_ASSERT(parse("\"x\"", 1).ok);
  }

  void testDepthLimit() {
    CPPUNIT_ASSERT(parse(std::string(8, '[') + std::string(8, ']'), 3, {8, 64}).ok);
    const Outcome deep = parse(std::string(9, '[') + std::string(9, ']'), 3, {8, 64});
    CPPUNIT_ASSERT(!deep.ok);
    CPPUNIT_ASSERT(deep.error.find("nested too deep") != std::string::npos);
    // A million brackets fail at once, without recursion.
    CPPUNIT_ASSERT(!parse(std::string(1000000, '['), 65536, {32, 64}).ok);
  }

  void testOverlongStringIsCutAndFlagged() {
    const std::string document =
        "{\"" + std::string(20, 'k') + "\":\"" + std::string(100, 'v') + "\\u00e9\",\"b\":\"ok\"}";
    const Outcome out = parse(document, 7, {8, 10});
    CPPUNIT_ASSERT_MESSAGE(out.error, out.ok);
    CPPUNIT_ASSERT_EQUAL(
        "{k(" + std::string(10, 'k') + ",cut)s(" + std::string(10, 'v') + ",cut)k(b)s(ok)}",
        out.events);
  }

  void testOverlongNumberIsFlagged() {
    const Outcome out = parse("[" + std::string(100, '9') + ",1]", 5);
    CPPUNIT_ASSERT_MESSAGE(out.error, out.ok);
    CPPUNIT_ASSERT_EQUAL("[n(" + std::string(64, '9') + ",cut)n(1)]", out.events);
  }

  void testIncompleteDocumentsFail() {
    for (const char* cut : {"", "   ", "{", "{\"items\":[", "{\"a\":\"unterminated", "[1,",
                            "{\"a\"", "{\"a\":", "[tru", "[\"\\u12"}) {
      const Outcome out = parse(cut, 1);
      CPPUNIT_ASSERT_MESSAGE(cut, !out.ok);
    }
    const std::string document = R"({"last_update":1,"items":[{"name":"A","price":1.5}]})";
    for (std::size_t length = 0; length < document.size(); ++length) {
      CPPUNIT_ASSERT_MESSAGE(std::to_string(length), !parse(document.substr(0, length), 3).ok);
    }
    CPPUNIT_ASSERT(parse(document, 3).ok);
  }

  void testMalformedDocumentsFail() {
    for (const char* bad :
         {"{\"a\" 1}", "{\"a\":1,}", "[1,]",          "[1 2]", "{1:2}", "[01]",    "[1.]",
          "[-]",       "[.5]",       "[1e]",          "[+1]",  "[tru]", "[nulll]", "[True]",
          "\"a\nb\"",  "\"\\x\"",    "[\"\\u12g4\"]", "{}}",   "[]x",   "{} {}",   "[}",
          "{]",        "'a'"}) {
      CPPUNIT_ASSERT_MESSAGE(bad, !parse(bad, 1).ok);
      CPPUNIT_ASSERT_MESSAGE(bad, !parse(bad, 100).ok);
    }
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(StreamJsonParserTest);
