#include "ListSourceChecks.hpp"
#include "MarketCsgoSource.hpp"

using skinpulse::plugins::market_csgo::MarketCsgoSource;
using namespace sources_lists_test;

namespace {
const std::string kBase = "https://market.csgo.test";
const std::string kAsks = kBase + "/api/v2/prices/USD.json";
const std::string kBids = kBase + "/api/v2/prices/class_instance/USD.json";
}  // namespace

class MarketCsgoSourceTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(MarketCsgoSourceTest);
  CPPUNIT_TEST(emitsAsksAndBestBidsInOneBatch);
  CPPUNIT_TEST(aFailingBidListKeepsTheAsks);
  CPPUNIT_TEST(bothListsFailingFailsThePoll);
  CPPUNIT_TEST(bidsCanBeTurnedOff);
  CPPUNIT_TEST(survivesHostileInput);
  CPPUNIT_TEST_SUITE_END();

 public:
  void setUp() override {
    host_ = std::make_unique<MockHost>();
    host_->settings = {{"url", kBase}};
    host_->http_client.on(kAsks, MockHttp::ok(fixture("marketcsgo_prices_usd_shape.json")));
    host_->http_client.on(kBids,
                          MockHttp::ok(fixture("marketcsgo_prices_class_instance_usd_shape.json")));
  }

  void emitsAsksAndBestBidsInOneBatch() {
    MarketCsgoSource source(*host_);
    const QuoteBatch batch = source.fetchQuotes();
    CPPUNIT_ASSERT_MESSAGE(batch.status.message(), batch.status.isOk());
    // 3 asks; bids: two Redline entries become one (the higher), the AWP's "0" is no order.
    CPPUNIT_ASSERT_EQUAL(std::size_t{5}, batch.quotes.size());
    CPPUNIT_ASSERT_EQUAL(std::int64_t{4138}, redlineCents(batch));  // ask "41.377"
    const auto& ask = batch.quotes[0];
    CPPUNIT_ASSERT(!ask.kind.has_value());
    CPPUNIT_ASSERT_EQUAL(std::int64_t{312}, ask.listings.value_or(-1));  // `volume` = listings
    CPPUNIT_ASSERT_EQUAL(std::int64_t{0}, ask.volume);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{1724318846}, ask.observed_at.value_or(0));
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.512, batch.quotes[1].price.major, 1e-12);
    const auto& bid = batch.quotes[3];
    CPPUNIT_ASSERT_EQUAL(std::string("AK-47 | Redline (Field-Tested)"), bid.market_hash_name);
    CPPUNIT_ASSERT(bid.kind == PriceKind::kBid);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(38.5, bid.price.major, 1e-12);  // the best of 38.5 and 37.9
    CPPUNIT_ASSERT(!bid.listings.has_value());
    CPPUNIT_ASSERT_EQUAL(std::string("Recoil Case"), batch.quotes[4].market_hash_name);
    CPPUNIT_ASSERT(batch.quotes[4].kind == PriceKind::kBid);
    const auto requests = host_->http_client.requests();
    CPPUNIT_ASSERT_EQUAL(std::size_t{2}, requests.size());
    CPPUNIT_ASSERT_EQUAL(kAsks, requests[0].url);
    CPPUNIT_ASSERT_EQUAL(kBids, requests[1].url);
    CPPUNIT_ASSERT_EQUAL(std::size_t{64} * 1024 * 1024, requests[1].max_body_bytes);
  }

  void aFailingBidListKeepsTheAsks() {
    // Issue 28: a bad bids document used to throw away the good asks. Now the asks are
    // kept and the bids part is named in failed_parts (docs/api.md §19).
    for (const auto& bad : {MockHttp::ok("", 429, {{"Retry-After", "30"}}),
                            MockHttp::ok("<html>oops</html>"), MockHttp::ok("", 503)}) {
      host_->http_client.on(kBids, bad);
      MarketCsgoSource source(*host_);
      const skinpulse::sdk::PollReport report = source.poll();
      CPPUNIT_ASSERT_MESSAGE(report.status.message(), report.status.isOk());
      CPPUNIT_ASSERT_EQUAL(std::size_t{3}, report.quotes.size());
      for (const auto& quote : report.quotes) CPPUNIT_ASSERT(!quote.kind.has_value());
      CPPUNIT_ASSERT_EQUAL(std::size_t{1}, report.failed_parts.size());
      CPPUNIT_ASSERT_EQUAL(std::string("bids"), report.failed_parts[0].part);
      CPPUNIT_ASSERT(!report.failed_parts[0].status.isOk());
      CPPUNIT_ASSERT_EQUAL(std::int64_t{3}, report.rows_read);
    }
    host_->http_client.on(kBids, MockHttp::ok("", 429, {{"Retry-After", "30"}}));
    MarketCsgoSource source(*host_);
    const skinpulse::sdk::PollReport report = source.poll();
    CPPUNIT_ASSERT(report.failed_parts[0].status.code() == Status::Code::kRateLimited);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{30}, report.retry_after_seconds.value_or(-1));
  }

  void bothListsFailingFailsThePoll() {
    host_->http_client.on(kAsks, MockHttp::ok("", 429, {{"Retry-After", "30"}}));
    host_->http_client.on(kBids, MockHttp::ok("", 500));
    MarketCsgoSource source(*host_);
    const skinpulse::sdk::PollReport report = source.poll();
    CPPUNIT_ASSERT(report.status.code() == Status::Code::kRateLimited);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{30}, report.retry_after_seconds.value_or(-1));
    CPPUNIT_ASSERT(report.quotes.empty());
    CPPUNIT_ASSERT_EQUAL(std::size_t{2}, report.failed_parts.size());
  }

  void bidsCanBeTurnedOff() {
    host_->settings["bids"] = "false";
    MarketCsgoSource source(*host_);
    CPPUNIT_ASSERT_EQUAL(std::size_t{3}, source.fetchQuotes().quotes.size());
    CPPUNIT_ASSERT_EQUAL(std::size_t{1}, host_->http_client.requests().size());
    host_->settings["bids"] = "sometimes";
    CPPUNIT_ASSERT_THROW(MarketCsgoSource bad(*host_), std::invalid_argument);
  }

  void survivesHostileInput() {
    // Every request gets the same body, and the bids' list is an object, not the asks'
    // array: the asks are checked here, the bids' shape by the fixture test above.
    checkHostileInputs<MarketCsgoSource>(
        [](const std::string& rows) {
          return R"({"success":true,"time":1724318846,"currency":"USD","items":)" + rows + "}";
        },
        [](const std::string& name, const std::string& price) {
          return R"({"market_hash_name":")" + name + R"(","volume":"-3","price":")" + price +
                 R"("})";
        },
        {{"bids", "false"}});
  }

 private:
  std::unique_ptr<MockHost> host_;
};

CPPUNIT_TEST_SUITE_REGISTRATION(MarketCsgoSourceTest);
