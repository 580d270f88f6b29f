// ingest/PollHealth: when a poll's report is a failure in disguise (docs/api.md §19), the
// texts operators read, and the bound on label values that come from plugins.

#include "common/Json.hpp"
#include "ingest/PollHealth.hpp"

#include <cppunit/extensions/HelperMacros.h>

#include <string>

using namespace skinpulse;

namespace {

sdk::PollReport reportOf(std::int64_t rows, sdk::SkipCounts skipped, std::size_t quotes = 0) {
  sdk::PollReport report;
  report.rows_read = rows;
  report.skipped = std::move(skipped);
  report.quotes.resize(quotes);
  return report;
}

}  // namespace

class PollHealthTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(PollHealthTest);
  CPPUNIT_TEST(rowsWithoutAQuoteAreUnusable);
  CPPUNIT_TEST(anEmptyMarketOrAFailedStatusIsNotJudgedHere);
  CPPUNIT_TEST(summaryListsReasonsByCount);
  CPPUNIT_TEST(warnsWhenMoreThanHalfIsSkipped);
  CPPUNIT_TEST(labelsAreBounded);
  CPPUNIT_TEST(countsAreWrittenForReadyz);
  CPPUNIT_TEST_SUITE_END();

 public:
  void rowsWithoutAQuoteAreUnusable() {
    CPPUNIT_ASSERT_EQUAL(
        std::string("malformed_response: no usable row: 12 read, skipped: "
                    "no_price×10, bad_price×2"),
        ingest::unusableReportError(reportOf(12, {{"bad_price", 2}, {"no_price", 10}}))
            .value_or("(usable)"));
    // Rows read but none skipped (a plugin that counts only what it read): still unusable.
    CPPUNIT_ASSERT_EQUAL(std::string("malformed_response: no usable row: 3 read"),
                         ingest::unusableReportError(reportOf(3, {})).value_or("(usable)"));
    // Skipped rows alone count as read.
    CPPUNIT_ASSERT_EQUAL(
        std::string("malformed_response: no usable row: 2 read, skipped: locked×2"),
        ingest::unusableReportError(reportOf(0, {{"locked", 2}})).value_or("(usable)"));
    auto parts = reportOf(5, {{"no_price", 5}});
    parts.failed_parts.push_back(
        {"bids", sdk::Status(sdk::Status::Code::kUnavailable, "HTTP 503")});
    CPPUNIT_ASSERT(
        ingest::unusableReportError(parts).value_or("").ends_with("; bids failed: HTTP 503"));
  }

  void anEmptyMarketOrAFailedStatusIsNotJudgedHere() {
    CPPUNIT_ASSERT(!ingest::unusableReportError(reportOf(0, {})));
    CPPUNIT_ASSERT(!ingest::unusableReportError(reportOf(5, {{"no_price", 4}}, 1)));
    auto failed = reportOf(5, {{"no_price", 5}});
    failed.status = sdk::Status(sdk::Status::Code::kUnavailable, "HTTP 503");
    CPPUNIT_ASSERT(!ingest::unusableReportError(failed));  // its own status says it failed
  }

  void summaryListsReasonsByCount() {
    CPPUNIT_ASSERT_EQUAL(std::string("b×5, a×2, c×2"),
                         ingest::skipSummary({{"c", 2}, {"b", 5}, {"a", 2}, {"zero", 0}}));
    CPPUNIT_ASSERT_EQUAL(std::string("a×4"), ingest::skipSummary({{"a", 1}, {"a", 3}}));  // merged
    CPPUNIT_ASSERT_EQUAL(std::string("a×3, b×2, …"),
                         ingest::skipSummary({{"a", 3}, {"b", 2}, {"c", 1}}, 2));
    CPPUNIT_ASSERT_EQUAL(std::int64_t(6), ingest::totalSkipped({{"a", 3}, {"b", -1}, {"c", 3}}));
  }

  void warnsWhenMoreThanHalfIsSkipped() {
    CPPUNIT_ASSERT(!ingest::mostlySkippedWarning(reportOf(10, {{"locked", 5}}, 5)));  // half: no
    CPPUNIT_ASSERT_EQUAL(
        std::string("6 of 10 row(s) skipped, mostly locked (4)"),
        ingest::mostlySkippedWarning(reportOf(10, {{"locked", 4}, {"no_price", 2}}, 4))
            .value_or("(none)"));
    CPPUNIT_ASSERT_EQUAL(
        std::string("3 of 3 row(s) skipped, mostly no_price (3)"),
        ingest::mostlySkippedWarning(reportOf(0, {{"no_price", 3}})).value_or("(none)"));
    CPPUNIT_ASSERT(!ingest::mostlySkippedWarning(reportOf(10, {}, 10)));
  }

  void labelsAreBounded() {
    ingest::BoundedLabels labels(2);
    CPPUNIT_ASSERT_EQUAL(std::string("no_price"), labels.admit("no_price"));
    CPPUNIT_ASSERT_EQUAL(std::string("page 3"), labels.admit("page 3"));
    CPPUNIT_ASSERT_EQUAL(std::string("other"), labels.admit("locked"));       // full
    CPPUNIT_ASSERT_EQUAL(std::string("no_price"), labels.admit("no_price"));  // known stays
    ingest::BoundedLabels fresh(8);
    CPPUNIT_ASSERT_EQUAL(std::string("other"), fresh.admit(""));
    CPPUNIT_ASSERT_EQUAL(std::string("other"), fresh.admit(std::string(49, 'a')));
    CPPUNIT_ASSERT_EQUAL(std::string("other"), fresh.admit("line\nbreak"));
    CPPUNIT_ASSERT_EQUAL(std::string("other"), fresh.admit("caf\xc3\xa9"));
  }

  void countsAreWrittenForReadyz() {
    ingest::PollCounts counts;
    counts.rows_read = 9;
    counts.skipped = {{"no_price", 4}};
    counts.last_rows_read = 4;
    counts.last_skipped = {{"no_price", 4}};
    counts.part_failures = 1;
    counts.last_part_failure = "bids: upstream unavailable: HTTP 503";
    counts.last_part_failure_at = 0;
    common::JsonWriter json;
    json.beginObject();
    ingest::writePollCounts(json, counts);
    json.endObject();
    CPPUNIT_ASSERT_EQUAL(
        std::string(R"({"rows_read":9,"rows_skipped":{"no_price":4},"last_poll_rows":{"read":4,)"
                    R"("skipped":{"no_price":4}},"part_failures":1,"last_part_failure":{"error":)"
                    R"("bids: upstream unavailable: HTTP 503","time":"1970-01-01T00:00:00Z"}})"),
        json.take());
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(PollHealthTest);
