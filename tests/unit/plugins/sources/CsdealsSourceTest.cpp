#include "CsdealsSource.hpp"
#include "ListSourceChecks.hpp"

using skinpulse::plugins::csdeals::CsdealsSource;
using namespace sources_lists_test;

class CsdealsSourceTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(CsdealsSourceTest);
  CPPUNIT_TEST(readsTextDollarsAndTheFeedTime);
  CPPUNIT_TEST(unreadableFeedTimeIsMalformed);
  CPPUNIT_TEST(survivesHostileInput);
  CPPUNIT_TEST_SUITE_END();

 public:
  void readsTextDollarsAndTheFeedTime() {
    const QuoteBatch batch =
        pollWith<CsdealsSource>(MockHttp::ok(fixture("csdeals_lowest_prices_shape.json")));
    CPPUNIT_ASSERT_MESSAGE(batch.status.message(), batch.status.isOk());
    CPPUNIT_ASSERT_EQUAL(std::size_t{3}, batch.quotes.size());
    CPPUNIT_ASSERT_EQUAL(std::int64_t{4005}, redlineCents(batch));  // "40.05"
    for (const auto& quote : batch.quotes) {
      CPPUNIT_ASSERT_EQUAL(std::int64_t{1732440000}, quote.observed_at.value_or(0));
      CPPUNIT_ASSERT(!quote.listings.has_value());  // CS.Deals gives no count
    }
  }

  void unreadableFeedTimeIsMalformed() {
    const QuoteBatch batch = pollWith<CsdealsSource>(MockHttp::ok(
        R"({"success":true,"response":{"time_updated":"yesterday","items":[{"marketname":"Recoil Case","lowest_price":"0.5"}]}})"));
    CPPUNIT_ASSERT(batch.status.code() == Status::Code::kMalformed);
  }

  void survivesHostileInput() {
    checkHostileInputs<CsdealsSource>(
        [](const std::string& rows) {
          return R"({"success":true,"response":{"time_updated":1732440000,"appid":730,"items":)" +
                 rows + "}}";
        },
        [](const std::string& name, const std::string& price) {
          return R"({"marketname":")" + name + R"(","lowest_price":")" + price + R"("})";
        });
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(CsdealsSourceTest);
