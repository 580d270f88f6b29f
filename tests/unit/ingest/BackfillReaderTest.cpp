#include "ingest/BackfillReader.hpp"

#include <cppunit/extensions/HelperMacros.h>

#include <sstream>
#include <string>
#include <vector>

using namespace skinpulse;

namespace {

constexpr const char* kGood =
    R"({"market_hash_name":"Recoil Case","source":" a ","time":"2026-11-22T10:00:00Z","price":45,"volume":2})";

struct Seen {
  std::vector<std::string> reasons;  ///< "" for a good line
  std::vector<std::size_t> line_numbers;
  std::vector<ingest::BackfillLine> lines;  ///< views copied out below
  std::vector<std::string> names;
};

Seen readAll(const std::string& text, std::size_t chunk = ingest::BackfillReader::kChunkBytes) {
  std::istringstream in(text);
  ingest::BackfillReader reader(in, chunk);
  Seen seen;
  for (auto status = reader.next(); status != ingest::BackfillReader::Status::kEnd;
       status = reader.next()) {
    seen.reasons.emplace_back(status == ingest::BackfillReader::Status::kLine ? ""
                                                                              : reader.reason());
    seen.line_numbers.push_back(reader.lineNumber());
    seen.lines.push_back(reader.line());
    seen.names.emplace_back(reader.line().name);
  }
  return seen;
}

std::string one(const std::string& line) {
  const auto seen = readAll(line + "\n");
  CPPUNIT_ASSERT_EQUAL(std::size_t{1}, seen.reasons.size());
  return seen.reasons[0];
}

}  // namespace

class BackfillReaderTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(BackfillReaderTest);
  CPPUNIT_TEST(readsFieldsAndTrimsSource);
  CPPUNIT_TEST(bomCrlfAndBlankLines);
  CPPUNIT_TEST(lineNumbersCountBlankLines);
  CPPUNIT_TEST(hugeLineIsSkippedAndTheNextRead);
  CPPUNIT_TEST(deepNestingIsMalformed);
  CPPUNIT_TEST(wrongTypes);
  CPPUNIT_TEST(badTimes);
  CPPUNIT_TEST(numbersBeyond64Bits);
  CPPUNIT_TEST(lastLineWithoutNewline);
  CPPUNIT_TEST(unknownMembersAreIgnored);
  CPPUNIT_TEST(anyChunkSizeReadsTheSame);
  CPPUNIT_TEST_SUITE_END();

 public:
  void readsFieldsAndTrimsSource() {
    const auto seen = readAll(
        std::string(kGood) + "\n" +
        R"({"market_hash_name":"X","source":"b","time":"2026-11-22T10:00:00Z","price":1,"kind":"bid","listings":7})" +
        "\n");
    CPPUNIT_ASSERT_EQUAL(std::string(""), seen.reasons[0]);
    CPPUNIT_ASSERT_EQUAL(std::string("Recoil Case"), seen.names[0]);
    CPPUNIT_ASSERT_EQUAL(INT64_C(45), seen.lines[0].price);
    CPPUNIT_ASSERT_EQUAL(INT64_C(2), seen.lines[0].volume);
    CPPUNIT_ASSERT_EQUAL(INT64_C(1795341600), seen.lines[0].time);
    CPPUNIT_ASSERT(!seen.lines[0].kind);
    CPPUNIT_ASSERT(seen.lines[1].kind == sdk::PriceKind::kBid);
    CPPUNIT_ASSERT(seen.lines[1].listings == std::int64_t{7});
    CPPUNIT_ASSERT_EQUAL(INT64_C(0), seen.lines[1].volume);
  }

  void bomCrlfAndBlankLines() {
    const auto seen =
        readAll("\xEF\xBB\xBF" + std::string(kGood) + "\r\n\r\n   \n\t\r\n" + kGood + "\r\n");
    CPPUNIT_ASSERT_EQUAL(std::size_t{2}, seen.reasons.size());
    CPPUNIT_ASSERT_EQUAL(std::string(""), seen.reasons[0]);
    CPPUNIT_ASSERT_EQUAL(std::string(""), seen.reasons[1]);
    // A BOM anywhere but the start is not whitespace.
    CPPUNIT_ASSERT_EQUAL(std::string("malformed JSON"),
                         readAll(std::string(kGood) + "\n\xEF\xBB\xBF" + kGood).reasons[1]);
  }

  void lineNumbersCountBlankLines() {
    const auto seen = readAll("\n" + std::string(kGood) + "\n\nnot json\n");
    CPPUNIT_ASSERT_EQUAL(std::size_t{2}, seen.line_numbers[0]);
    CPPUNIT_ASSERT_EQUAL(std::size_t{4}, seen.line_numbers[1]);
    CPPUNIT_ASSERT_EQUAL(std::string("malformed JSON"), seen.reasons[1]);
  }

  void hugeLineIsSkippedAndTheNextRead() {
    // 3 MiB in one line (the reader's chunk is 1 MiB): refused unread, the next one read.
    const std::string huge = R"({"market_hash_name":")" + std::string(3 << 20, 'x') + "\"}";
    const auto seen = readAll(huge + "\n" + kGood + "\n" + huge);
    CPPUNIT_ASSERT_EQUAL(std::size_t{3}, seen.reasons.size());
    CPPUNIT_ASSERT_EQUAL(std::string("line longer than 64 KiB"), seen.reasons[0]);
    CPPUNIT_ASSERT_EQUAL(std::string(""), seen.reasons[1]);
    CPPUNIT_ASSERT_EQUAL(std::size_t{2}, seen.line_numbers[1]);
    CPPUNIT_ASSERT_EQUAL(std::string("line longer than 64 KiB"), seen.reasons[2]);
    // Exactly at the limit is still read (and refused only for what it says).
    std::string limit = R"({"market_hash_name":")";
    limit += std::string(ingest::BackfillReader::kMaxLineBytes - limit.size() - 2, 'y') + "\"}";
    CPPUNIT_ASSERT_EQUAL(ingest::BackfillReader::kMaxLineBytes, limit.size());
    CPPUNIT_ASSERT_EQUAL(std::string("missing or overlong source"), one(limit));
  }

  void deepNestingIsMalformed() {
    std::string deep =
        R"({"market_hash_name":"X","source":"a","time":"2026-11-22T10:00:00Z","price":1,"x":)";
    deep += std::string(5000, '[') + std::string(5000, ']') + "}";
    CPPUNIT_ASSERT_EQUAL(std::string("malformed JSON"), one(deep));
    CPPUNIT_ASSERT_EQUAL(std::string("malformed JSON"), one("[1,2,3]"));
    CPPUNIT_ASSERT_EQUAL(std::string("malformed JSON"), one("\"text\""));
    CPPUNIT_ASSERT_EQUAL(std::string("malformed JSON"), one(std::string(kGood) + " trailing"));
    CPPUNIT_ASSERT_EQUAL(std::string("malformed JSON"), one("{\"market_hash_name\":\"\xff\xfe\"}"));
  }

  void wrongTypes() {
    const std::string base = R"("source":"a","time":"2026-11-22T10:00:00Z")";
    CPPUNIT_ASSERT_EQUAL(std::string("field of the wrong type"),
                         one(R"({"market_hash_name":7,)" + base + R"(,"price":1})"));
    CPPUNIT_ASSERT_EQUAL(std::string("field of the wrong type"),
                         one("{" + base + R"(,"price":1})"));
    CPPUNIT_ASSERT_EQUAL(
        std::string("missing or overlong source"),
        one(R"({"market_hash_name":"X","source":"   ","time":"2026-11-22T10:00:00Z","price":1})"));
    CPPUNIT_ASSERT_EQUAL(std::string("missing or overlong source"),
                         one(R"({"market_hash_name":"X","source":")" + std::string(65, 's') +
                             R"(","time":"2026-11-22T10:00:00Z","price":1})"));
    const std::string name = R"({"market_hash_name":"X",)" + base;
    CPPUNIT_ASSERT_EQUAL(std::string("price not an integer number of cents"),
                         one(name + R"(,"price":4.5})"));
    CPPUNIT_ASSERT_EQUAL(std::string("price not an integer number of cents"),
                         one(name + R"(,"price":"45"})"));
    CPPUNIT_ASSERT_EQUAL(std::string("price not an integer number of cents"),
                         one(name + R"(,"price":true})"));
    CPPUNIT_ASSERT_EQUAL(std::string("price not an integer number of cents"),
                         one(name + R"(,"price":null})"));
    CPPUNIT_ASSERT_EQUAL(std::string("price not an integer number of cents"),
                         one(name + R"(,"price":1e3})"));
    CPPUNIT_ASSERT_EQUAL(std::string("price not an integer number of cents"),
                         one(name + R"(,"price":18446744073709551615})"));
    CPPUNIT_ASSERT_EQUAL(std::string("volume not an integer"),
                         one(name + R"(,"price":1,"volume":null})"));
    CPPUNIT_ASSERT_EQUAL(std::string("kind not ask, bid, sale or reference"),
                         one(name + R"(,"price":1,"kind":3})"));
    CPPUNIT_ASSERT_EQUAL(std::string("listings not an integer"),
                         one(name + R"(,"price":1,"listings":"many"})"));
    // A repeated member counts as written last, as before.
    CPPUNIT_ASSERT_EQUAL(std::string(""), one(name + R"(,"price":"x","price":3})"));
  }

  void badTimes() {
    for (const char* time : {"yesterday", "2026-13-01T00:00:00Z", "2026-11-22 10:00:00", ""}) {
      CPPUNIT_ASSERT_EQUAL(std::string("bad time"),
                           one(std::string(R"({"market_hash_name":"X","source":"a","time":")") +
                               time + R"(","price":1})"));
    }
    CPPUNIT_ASSERT_EQUAL(
        std::string("bad time"),
        one(R"({"market_hash_name":"X","source":"a","time":1795341600,"price":1})"));
  }

  void numbersBeyond64Bits() {
    CPPUNIT_ASSERT_EQUAL(
        std::string("number out of range"),
        one(R"({"market_hash_name":"X","source":"a","time":"2026-11-22T10:00:00Z","price":1e400})"));
    CPPUNIT_ASSERT_EQUAL(
        std::string("number out of range"),
        one(R"({"market_hash_name":"X","source":"a","time":"2026-11-22T10:00:00Z","price":1,"volume":123456789012345678901234567890})"));
  }

  void lastLineWithoutNewline() {
    const auto seen = readAll(std::string(kGood) + "\n" + kGood);
    CPPUNIT_ASSERT_EQUAL(std::size_t{2}, seen.reasons.size());
    CPPUNIT_ASSERT_EQUAL(std::string(""), seen.reasons[1]);
    CPPUNIT_ASSERT(readAll("").reasons.empty());
  }

  void anyChunkSizeReadsTheSame() {
    const std::string text = "\xEF\xBB\xBF" + std::string(kGood) + "\r\n\nnot json\n" +
                             std::string(70000, 'z') + "\n" + kGood;
    const auto whole = readAll(text);
    for (std::size_t chunk : {1, 2, 3, 7, 64, 4096}) {
      const auto seen = readAll(text, chunk);
      CPPUNIT_ASSERT(seen.reasons == whole.reasons);
      CPPUNIT_ASSERT(seen.line_numbers == whole.line_numbers);
      CPPUNIT_ASSERT(seen.names == whole.names);
    }
  }

  void unknownMembersAreIgnored() {
    CPPUNIT_ASSERT_EQUAL(
        std::string(""),
        one(R"({"extra":{"deep":[1,2,{"a":null}]},"market_hash_name":"X","source":"a","time":"2026-11-22T10:00:00Z","price":1,"currency":"EUR"})"));
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(BackfillReaderTest);
