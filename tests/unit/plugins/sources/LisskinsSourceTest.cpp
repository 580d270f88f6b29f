// LisskinsSource end to end over the host's HTTP client (MockHttp answers stream() through
// the SDK's default, in 16 KiB pieces): the request, the configuration, and how every
// kind of upstream answer maps to a batch.

#include "LisskinsSource.hpp"
#include "mocks/Fixture.hpp"
#include "mocks/MockHost.hpp"

#include <cppunit/extensions/HelperMacros.h>

#include <memory>
#include <stdexcept>

using skinpulse::plugins::lisskins::LisskinsSource;
using skinpulse::sdk::HttpResponse;
using skinpulse::sdk::QuoteBatch;
using skinpulse::sdk::Status;
using skinpulse::test::MockHost;
using skinpulse::test::MockHttp;

namespace {
const std::string kUrl = "http://lisskins.test/market_export_json/api_csgo_full.json";
}  // namespace

class LisskinsSourceTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(LisskinsSourceTest);
  CPPUNIT_TEST(testFixtureIsPriced);
  CPPUNIT_TEST(testRequestCarriesTimeoutCapAndEncodings);
  CPPUNIT_TEST(testPriceStatisticKey);
  CPPUNIT_TEST(testBadKeysRefuseToStart);
  CPPUNIT_TEST(testGarbageIsMalformed);
  CPPUNIT_TEST(testCutDocumentIsMalformed);
  CPPUNIT_TEST(testRateLimitCarriesRetryAfter);
  CPPUNIT_TEST(testServerErrorIsUnavailable);
  CPPUNIT_TEST(testTooLargePassesThrough);
  CPPUNIT_TEST_SUITE_END();

 public:
  void setUp() override {
    host_ = std::make_unique<MockHost>();
    host_->settings["url"] = kUrl;
  }

  QuoteBatch fetchWith(HttpResponse response) {
    host_->http_client.on(kUrl, std::move(response));
    LisskinsSource source(*host_);
    return source.fetchQuotes();
  }

  void testFixtureIsPriced() {
    const QuoteBatch batch =
        fetchWith(MockHttp::ok(skinpulse::test::fixture("lisskins_export_shape.json")));
    CPPUNIT_ASSERT_MESSAGE(batch.status.message(), batch.status.isOk());
    CPPUNIT_ASSERT_EQUAL(std::size_t{5}, batch.quotes.size());
    for (const auto& quote : batch.quotes) {
      if (quote.market_hash_name == "AK-47 | Redline (Field-Tested)") {
        CPPUNIT_ASSERT(quote.price.cents >= 1000 && quote.price.cents <= 6000);
      }
    }
  }

  void testRequestCarriesTimeoutCapAndEncodings() {
    fetchWith(MockHttp::ok(R"({"items":[]})"));
    const auto requests = host_->http_client.requests();
    CPPUNIT_ASSERT_EQUAL(std::size_t{1}, requests.size());
    CPPUNIT_ASSERT_EQUAL(kUrl, requests[0].url);
    // Sized for the real export: reports reach ~860 MB (docs/upstreams.md).
    CPPUNIT_ASSERT_EQUAL(std::size_t{1024} * 1024 * 1024, requests[0].max_body_bytes);
    CPPUNIT_ASSERT(requests[0].timeout == std::chrono::seconds(570));
    bool gzip = false;
    for (const auto& [name, value] : requests[0].headers) {
      gzip = gzip || (name == "Accept-Encoding" && value.find("gzip") != std::string::npos);
    }
    CPPUNIT_ASSERT(gzip);
  }

  void testPriceStatisticKey() {
    host_->settings["price_statistic"] = "min";
    const QuoteBatch batch =
        fetchWith(MockHttp::ok(skinpulse::test::fixture("lisskins_export_shape.json")));
    for (const auto& quote : batch.quotes) {
      if (quote.market_hash_name == "AK-47 | Redline (Field-Tested)") {
        CPPUNIT_ASSERT_EQUAL(std::int64_t{310}, quote.price.cents);
      }
    }
  }

  void testBadKeysRefuseToStart() {
    host_->settings["price_statistic"] = "mean";
    CPPUNIT_ASSERT_THROW(LisskinsSource{*host_}, std::invalid_argument);
    host_->settings.erase("price_statistic");
    host_->settings["url"] = "ftp://lis-skins.com/x.json";
    CPPUNIT_ASSERT_THROW(LisskinsSource{*host_}, std::invalid_argument);
    host_->settings["url"] = kUrl;
    host_->settings["max_bytes"] = "0";
    CPPUNIT_ASSERT_THROW(LisskinsSource{*host_}, std::invalid_argument);
    host_->settings.erase("max_bytes");
    host_->settings.erase("url");  // the real export is the default
    LisskinsSource source(*host_);
  }

  void testGarbageIsMalformed() {
    const QuoteBatch batch = fetchWith(MockHttp::ok("<html>Cloudflare</html>"));
    CPPUNIT_ASSERT(batch.status.code() == Status::Code::kMalformed);
    CPPUNIT_ASSERT(batch.quotes.empty());
  }

  void testCutDocumentIsMalformed() {
    const std::string fixture = skinpulse::test::fixture("lisskins_export_shape.json");
    const QuoteBatch batch = fetchWith(MockHttp::ok(fixture.substr(0, fixture.size() - 10)));
    CPPUNIT_ASSERT(batch.status.code() == Status::Code::kMalformed);
    CPPUNIT_ASSERT(batch.quotes.empty());
  }

  void testRateLimitCarriesRetryAfter() {
    const QuoteBatch batch = fetchWith(MockHttp::ok("slow down", 429, {{"Retry-After", "120"}}));
    CPPUNIT_ASSERT(batch.status.code() == Status::Code::kRateLimited);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{120}, batch.retry_after_seconds.value_or(-1));
  }

  void testServerErrorIsUnavailable() {
    const QuoteBatch batch = fetchWith(MockHttp::ok("{\"items\":[]}", 500));
    CPPUNIT_ASSERT(batch.status.code() == Status::Code::kUnavailable);
  }

  void testTooLargePassesThrough() {
    const QuoteBatch batch = fetchWith(
        MockHttp::failure(HttpResponse::Error::kTooLarge, "body over the cap of 536870912 bytes"));
    CPPUNIT_ASSERT(batch.status.code() == Status::Code::kTooLarge);
    CPPUNIT_ASSERT(batch.quotes.empty());
  }

 private:
  std::unique_ptr<MockHost> host_;
};

CPPUNIT_TEST_SUITE_REGISTRATION(LisskinsSourceTest);
