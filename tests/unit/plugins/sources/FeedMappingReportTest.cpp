// The shared list reader's ABI 1.3 report (plugins/sources/common/FeedMapping.hpp): a row's
// variant by name or paint index, per-variant price objects, the price object shapes, skip
// counts per reason, a body of unusable rows that is no success, and addPart().

#include "FeedMapping.hpp"
#include "SourceSupport.hpp"

#include <cppunit/extensions/HelperMacros.h>

#include <string>

using skinpulse::plugins::support::addPart;
using skinpulse::plugins::support::FieldPath;
using skinpulse::plugins::support::Mapping;
using skinpulse::plugins::support::parseList;
using skinpulse::plugins::support::PriceUnit;
using skinpulse::plugins::support::RowCounts;
using skinpulse::sdk::PollReport;
using skinpulse::sdk::Status;

namespace {

std::int64_t skipped(const PollReport& report, const std::string& reason) {
  for (const auto& [name, n] : report.skipped) {
    if (name == reason) return n;
  }
  return 0;
}

Mapping variantMapping() {
  Mapping m;
  m.unit = PriceUnit::kCents;
  m.variant = FieldPath::member("variant");
  return m;
}

}  // namespace

class FeedMappingReportTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(FeedMappingReportTest);
  CPPUNIT_TEST(variantByNameOrPaintIndexAndEveryRowKept);
  CPPUNIT_TEST(variantPricesBecomeQuotesAndOddEntriesAreCounted);
  CPPUNIT_TEST(priceObjectsAreUnwrappedOnlyWhenAsked);
  CPPUNIT_TEST(unusableRowsAreNoSuccessButAreReported);
  CPPUNIT_TEST(addPartKeepsGoodPartsAndNamesFailedOnes);
  CPPUNIT_TEST_SUITE_END();

 public:
  void variantByNameOrPaintIndexAndEveryRowKept() {
    RowCounts counts;
    const PollReport report =
        parseList(R"([{"market_hash_name":"K","price":100,"variant":"phase_2"},)"
                  R"({"market_hash_name":"K","price":90,"variant":415},)"
                  R"({"market_hash_name":"K","price":80,"variant":"Blue Gem"},)"
                  R"({"market_hash_name":"K","price":70,"variant":"852"},)"
                  R"({"market_hash_name":"K","price":60}])",
                  variantMapping(), 16, counts);
    CPPUNIT_ASSERT_MESSAGE(report.status.message(), report.status.isOk());
    CPPUNIT_ASSERT_EQUAL(std::size_t{5}, report.quotes.size());  // one name, nothing dropped
    CPPUNIT_ASSERT_EQUAL(std::string("Phase 2"), report.quotes[0].variant);
    CPPUNIT_ASSERT_EQUAL(std::string("Ruby"), report.quotes[1].variant);
    CPPUNIT_ASSERT_EQUAL(std::string(), report.quotes[2].variant);           // no catalogue variant
    CPPUNIT_ASSERT_EQUAL(std::string("Phase 1"), report.quotes[3].variant);  // a _widow kit
    CPPUNIT_ASSERT_EQUAL(std::string(), report.quotes[4].variant);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{5}, report.rows_read);
    CPPUNIT_ASSERT(report.skipped.empty());
  }

  void variantPricesBecomeQuotesAndOddEntriesAreCounted() {
    Mapping m;
    m.unit = PriceUnit::kMajor;
    m.unwrap_price_objects = true;
    m.price = FieldPath::parse("price_field", "/starting_at/price");
    m.variant_prices = FieldPath::parse("variant_prices_field", "/starting_at/doppler");
    RowCounts counts;
    const PollReport report =
        parseList(R"({"K":{"starting_at":{"price":null,"doppler":{"Ruby":{"price":30},"418":12.5,)"
                  R"("Phase 7":1,"Sapphire":true,"Emerald":0}}}})",
                  m, 16, counts);
    CPPUNIT_ASSERT_MESSAGE(report.status.message(), report.status.isOk());
    // The row's own price is null (no_price), its variants still count.
    CPPUNIT_ASSERT_EQUAL(std::size_t{2}, report.quotes.size());
    CPPUNIT_ASSERT_EQUAL(std::string("Ruby"), report.quotes[0].variant);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(30.0, report.quotes[0].price.major, 1e-9);
    CPPUNIT_ASSERT_EQUAL(std::string("Phase 1"), report.quotes[1].variant);
    CPPUNIT_ASSERT_EQUAL(std::string("K"), report.quotes[1].market_hash_name);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{1}, skipped(report, "unknown_variant"));  // Phase 7
    CPPUNIT_ASSERT_EQUAL(std::int64_t{1}, skipped(report, "bad_price"));        // true
    CPPUNIT_ASSERT_EQUAL(std::int64_t{2}, skipped(report, "no_price"));  // the row, Emerald 0
  }

  void priceObjectsAreUnwrappedOnlyWhenAsked() {
    Mapping m;
    m.unit = PriceUnit::kMajor;
    m.price = FieldPath::parse("price_field", "");
    const std::string body =
        R"({"A":1.5,"B":{"price":2.5},"C":{"starting_at":{"price":3.5}},"D":{"x":1},)"
        R"("E":{"price":null}})";
    RowCounts plain_counts;
    const PollReport plain = parseList(body, m, 16, plain_counts);
    CPPUNIT_ASSERT_EQUAL(std::size_t{1}, plain.quotes.size());  // only the bare number
    CPPUNIT_ASSERT_EQUAL(std::int64_t{4}, skipped(plain, "bad_price"));
    m.unwrap_price_objects = true;
    RowCounts counts;
    const PollReport report = parseList(body, m, 16, counts);
    CPPUNIT_ASSERT_EQUAL(std::size_t{3}, report.quotes.size());
    CPPUNIT_ASSERT_DOUBLES_EQUAL(3.5, report.quotes[2].price.major, 1e-9);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{1}, skipped(report, "bad_price"));  // D: neither shape
    CPPUNIT_ASSERT_EQUAL(std::int64_t{1}, skipped(report, "no_price"));   // E: null inside
  }

  void unusableRowsAreNoSuccessButAreReported() {
    RowCounts counts;
    const PollReport report = parseList(R"([{"market_hash_name":"A","price":{"Amount":"1"}},)"
                                        R"({"market_hash_name":"B"},{"price":3}])",
                                        variantMapping(), 16, counts);
    CPPUNIT_ASSERT(report.status.code() == Status::Code::kMalformed);
    CPPUNIT_ASSERT(report.quotes.empty());
    CPPUNIT_ASSERT_EQUAL(std::int64_t{3}, report.rows_read);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{1}, skipped(report, "bad_price"));
    CPPUNIT_ASSERT_EQUAL(std::int64_t{1}, skipped(report, "no_price"));
    CPPUNIT_ASSERT_EQUAL(std::int64_t{1}, skipped(report, "bad_name"));
    // An empty list is an empty market, not a failure.
    RowCounts empty_counts;
    CPPUNIT_ASSERT(parseList("[]", variantMapping(), 16, empty_counts).status.isOk());
  }

  void addPartKeepsGoodPartsAndNamesFailedOnes() {
    PollReport good;
    good.rows_read = 3;
    good.skipped = {{"no_price", 1}};
    good.quotes.resize(2);
    PollReport bad;
    bad.status = Status(Status::Code::kRateLimited, "HTTP 429");
    bad.retry_after_seconds = 30;
    bad.rows_read = 1;
    bad.skipped = {{"no_price", 1}, {"bad_name", 2}};
    bad.quotes.resize(5);  // a failed part's quotes are never kept
    PollReport report;
    addPart(report, good, "asks");
    addPart(report, bad, "bids");
    CPPUNIT_ASSERT(report.status.isOk());
    CPPUNIT_ASSERT_EQUAL(std::size_t{2}, report.quotes.size());
    CPPUNIT_ASSERT_EQUAL(std::int64_t{4}, report.rows_read);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{2}, skipped(report, "no_price"));
    CPPUNIT_ASSERT_EQUAL(std::int64_t{2}, skipped(report, "bad_name"));
    CPPUNIT_ASSERT_EQUAL(std::size_t{1}, report.failed_parts.size());
    CPPUNIT_ASSERT_EQUAL(std::string("bids"), report.failed_parts[0].part);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{30}, report.retry_after_seconds.value_or(-1));
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(FeedMappingReportTest);
