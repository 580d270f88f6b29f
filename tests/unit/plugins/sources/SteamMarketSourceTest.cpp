#include "SourcesTestSupport.hpp"
#include "SteamMarketSource.hpp"

#include <cppunit/extensions/HelperMacros.h>

#include <memory>
#include <stdexcept>

using skinpulse::plugins::steam_market::parseVolume;
using skinpulse::plugins::steam_market::SteamMarketSource;
using skinpulse::sdk::FetchResult;
using skinpulse::sdk::HttpResponse;
using skinpulse::sdk::QuotedPrice;
using skinpulse::sdk::Status;
using skinpulse::test::MockHost;
using skinpulse::test::MockHttp;

namespace {
const std::string kBase = "http://steam.test";
const std::string kOverview =
    kBase + "/market/priceoverview/?appid=730&currency=1&market_hash_name=";
const std::string kKarambit = "★ StatTrak™ Karambit | Doppler (Factory New)";
const std::string kKarambitEncoded =
    "%E2%98%85%20StatTrak%E2%84%A2%20Karambit%20%7C%20Doppler%20%28Factory%20New%29";
}  // namespace

class SteamMarketSourceTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(SteamMarketSourceTest);
  CPPUNIT_TEST(parsesRealUsdOverview);
  CPPUNIT_TEST(encodesNamesInTheUrl);
  CPPUNIT_TEST(parsesVolumesWithSeparators);
  CPPUNIT_TEST(fallsBackToMedianAndSkipsItemsWithoutPrice);
  CPPUNIT_TEST(malformedJsonIsMalformed);
  CPPUNIT_TEST(wrongTopLevelTypeIsMalformed);
  CPPUNIT_TEST(deepNestingIsMalformed);
  CPPUNIT_TEST(serverErrorIsUnavailable);
  CPPUNIT_TEST(unknownItemErrorIsSkipped);
  CPPUNIT_TEST(rateLimitStopsWithNoObservationsAndResumesThere);
  CPPUNIT_TEST(tooLargePassesThrough);
  CPPUNIT_TEST(rotatesConfiguredItemsAcrossFetches);
  CPPUNIT_TEST(rotatesCatalogueByIdAcrossFetches);
  CPPUNIT_TEST(heldItemsComeFirstThenTheCatalogue);
  CPPUNIT_TEST(heldItemsRotateWhenMoreThanOnePoll);
  CPPUNIT_TEST(capsRequestsPerFetch);
  CPPUNIT_TEST(smallCatalogueIsPolledOncePerFetch);
  CPPUNIT_TEST(emptyCatalogueSendsNothing);
  CPPUNIT_TEST(refusesBadKeys);
  CPPUNIT_TEST_SUITE_END();

 public:
  void setUp() override {
    host_ = std::make_unique<MockHost>();
    host_->settings["url"] = kBase;
  }

  std::vector<std::string> requestedNames(std::size_t from = 0) const {
    std::vector<std::string> names;
    const auto requests = host_->http_client.requests();
    for (std::size_t i = from; i < requests.size(); ++i) {
      CPPUNIT_ASSERT(requests[i].url.rfind(kOverview, 0) == 0);
      names.push_back(requests[i].url.substr(kOverview.size()));
    }
    return names;
  }

  void parsesRealUsdOverview() {
    host_->settings["items"] = "AK-47 | Redline (Field-Tested)";
    host_->http_client.on(kOverview,
                          MockHttp::ok(sources_test::fixture("steam_priceoverview_usd_real.json")));
    SteamMarketSource source(*host_);
    const FetchResult result = source.fetch();
    CPPUNIT_ASSERT(result.status.isOk());
    CPPUNIT_ASSERT_EQUAL(std::size_t{1}, result.observations.size());
    const auto& o = result.observations[0];
    CPPUNIT_ASSERT_EQUAL(std::string("AK-47 | Redline (Field-Tested)"), o.market_hash_name);
    CPPUNIT_ASSERT(o.price.form == QuotedPrice::Form::kText);
    CPPUNIT_ASSERT_EQUAL(std::string("$11.43"), o.price.text);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{1247}, o.volume);
    CPPUNIT_ASSERT(!o.observed_at.has_value());
    const auto requests = host_->http_client.requests();
    CPPUNIT_ASSERT_EQUAL(kOverview + "AK-47%20%7C%20Redline%20%28Field-Tested%29",
                         requests.at(0).url);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{30000},
                         static_cast<std::int64_t>(requests[0].timeout.count()));
    CPPUNIT_ASSERT_EQUAL(std::size_t{64} * 1024, requests[0].max_body_bytes);
  }

  void encodesNamesInTheUrl() {
    host_->settings["items"] = kKarambit + ", Dreams & Nightmares Case ,";
    host_->http_client.on(kOverview, MockHttp::ok(R"({"success":true,"lowest_price":"$1.00"})"));
    SteamMarketSource source(*host_);
    CPPUNIT_ASSERT(source.fetch().status.isOk());
    const auto names = requestedNames();
    CPPUNIT_ASSERT_EQUAL(std::size_t{2}, names.size());
    CPPUNIT_ASSERT_EQUAL(kKarambitEncoded, names[0]);
    CPPUNIT_ASSERT_EQUAL(std::string("Dreams%20%26%20Nightmares%20Case"), names[1]);
  }

  void parsesVolumesWithSeparators() {
    CPPUNIT_ASSERT_EQUAL(std::int64_t{1247}, parseVolume("1,247").value());
    CPPUNIT_ASSERT_EQUAL(std::int64_t{1234567}, parseVolume("1,234,567").value());
    CPPUNIT_ASSERT_EQUAL(std::int64_t{1234}, parseVolume("1.234").value());
    CPPUNIT_ASSERT_EQUAL(std::int64_t{1234}, parseVolume("1\xC2\xA0"
                                                         "234")
                                                 .value());
    CPPUNIT_ASSERT_EQUAL(std::int64_t{100}, parseVolume("100").value());
    CPPUNIT_ASSERT(!parseVolume("").has_value());
    CPPUNIT_ASSERT(!parseVolume("12k").has_value());
    CPPUNIT_ASSERT(!parseVolume("99999999999999999999").has_value());
    // The real CNY answer (price text is the host's to parse; the volume is ours).
    host_->settings["items"] = "Sticker | Rio 2022";
    host_->http_client.on(kOverview,
                          MockHttp::ok(sources_test::fixture("steam_priceoverview_cny_real.json")));
    SteamMarketSource source(*host_);
    const FetchResult result = source.fetch();
    CPPUNIT_ASSERT_EQUAL(std::size_t{1}, result.observations.size());
    CPPUNIT_ASSERT_EQUAL(std::int64_t{100}, result.observations[0].volume);
  }

  void fallsBackToMedianAndSkipsItemsWithoutPrice() {
    host_->settings["items"] = "A,B,C,D";
    host_->http_client.on(kOverview + "A",
                          MockHttp::ok(R"({"success":true,"volume":"3","median_price":"$2.50"})"));
    host_->http_client.on(kOverview + "B", MockHttp::ok(R"({"success":true})"));
    host_->http_client.on(kOverview + "C", MockHttp::ok(R"({"success":false})"));
    host_->http_client.on(kOverview + "D",
                          MockHttp::ok(R"({"success":true,"lowest_price":"$0.03"})"));
    SteamMarketSource source(*host_);
    const FetchResult result = source.fetch();
    CPPUNIT_ASSERT(result.status.isOk());
    CPPUNIT_ASSERT_EQUAL(std::size_t{2}, result.observations.size());
    CPPUNIT_ASSERT_EQUAL(std::string("A"), result.observations[0].market_hash_name);
    CPPUNIT_ASSERT_EQUAL(std::string("$2.50"), result.observations[0].price.text);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{3}, result.observations[0].volume);
    CPPUNIT_ASSERT_EQUAL(std::string("D"), result.observations[1].market_hash_name);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{0}, result.observations[1].volume);
    // ABI 1.2: the median of recent sales is a sale, the lowest listing the instance's kind.
    SteamMarketSource again(*host_);
    const auto quotes = again.fetchQuotes();
    CPPUNIT_ASSERT_EQUAL(std::size_t{2}, quotes.quotes.size());
    CPPUNIT_ASSERT(quotes.quotes[0].kind == skinpulse::sdk::PriceKind::kSale);
    CPPUNIT_ASSERT(!quotes.quotes[1].kind.has_value());
  }

  void malformedJsonIsMalformed() {
    host_->settings["items"] = "A";
    host_->http_client.on(kOverview, MockHttp::ok(R"({"success":true,"lowest_price":)"));
    SteamMarketSource source(*host_);
    const FetchResult result = source.fetch();
    CPPUNIT_ASSERT(result.status.code() == Status::Code::kMalformed);
    CPPUNIT_ASSERT(result.observations.empty());
  }

  void deepNestingIsMalformed() {
    host_->settings["items"] = "A";
    const std::string deep = std::string(40, '[') + std::string(40, ']');
    host_->http_client.on(
        kOverview, MockHttp::ok(R"({"success":true,"lowest_price":"$1.00","x":)" + deep + "}"));
    SteamMarketSource source(*host_);
    const FetchResult result = source.fetch();
    CPPUNIT_ASSERT(result.status.code() == Status::Code::kMalformed);
    CPPUNIT_ASSERT(result.observations.empty());
  }

  void wrongTopLevelTypeIsMalformed() {
    host_->settings["items"] = "A";
    host_->http_client.on(kOverview, MockHttp::ok("[\"$1.00\"]"));
    SteamMarketSource source(*host_);
    CPPUNIT_ASSERT(source.fetch().status.code() == Status::Code::kMalformed);
    host_->http_client.on(kOverview, MockHttp::ok("null"));
    CPPUNIT_ASSERT(source.fetch().status.code() == Status::Code::kMalformed);
  }

  void serverErrorIsUnavailable() {
    host_->settings["items"] = "A,B";
    host_->http_client.on(kOverview + "A", MockHttp::ok(R"({"success":true,"lowest_price":"$1"})"));
    host_->http_client.on(kOverview + "B", sources_test::status(502, "Bad Gateway"));
    SteamMarketSource source(*host_);
    const FetchResult result = source.fetch();
    CPPUNIT_ASSERT(result.status.code() == Status::Code::kUnavailable);
    CPPUNIT_ASSERT(result.observations.empty());
    host_->http_client.on(kOverview + "A",
                          MockHttp::failure(HttpResponse::Error::kConnect, "refused"));
    CPPUNIT_ASSERT(source.fetch().status.code() == Status::Code::kUnavailable);
  }

  void unknownItemErrorIsSkipped() {
    // Steam answers a name it does not know with an error status and {"success":false}.
    host_->settings["items"] = "Broken,Huge,B";
    host_->http_client.on(kOverview + "Broken", sources_test::status(500, R"({"success":false})"));
    // A success flag beyond int64 is no success (and must not throw out of fetch()).
    host_->http_client.on(kOverview + "Huge",
                          MockHttp::ok(R"({"success":18446744073709551615,"lowest_price":"$1"})"));
    host_->http_client.on(kOverview + "B", MockHttp::ok(R"({"success":true,"lowest_price":"$1"})"));
    SteamMarketSource source(*host_);
    const FetchResult result = source.fetch();
    CPPUNIT_ASSERT(result.status.isOk());
    CPPUNIT_ASSERT_EQUAL(std::size_t{1}, result.observations.size());
    CPPUNIT_ASSERT_EQUAL(std::string("B"), result.observations[0].market_hash_name);
  }

  void rateLimitStopsWithNoObservationsAndResumesThere() {
    host_->settings["items"] = "A,B,C,D";
    host_->http_client.on(kOverview, MockHttp::ok(R"({"success":true,"lowest_price":"$1"})"));
    host_->http_client.on(kOverview + "B", sources_test::status(429, "", {{"Retry-After", "90"}}));
    SteamMarketSource source(*host_);
    const FetchResult limited = source.fetch();
    CPPUNIT_ASSERT(limited.status.code() == Status::Code::kRateLimited);
    CPPUNIT_ASSERT(limited.observations.empty());
    CPPUNIT_ASSERT_EQUAL(std::int64_t{90}, limited.retry_after_seconds.value());
    CPPUNIT_ASSERT_EQUAL(std::size_t{2}, host_->http_client.requests().size());  // stopped early

    host_->http_client.on(kOverview + "B", MockHttp::ok(R"({"success":true,"lowest_price":"$2"})"));
    const FetchResult next = source.fetch();
    CPPUNIT_ASSERT(next.status.isOk());
    const auto names = requestedNames(2);
    CPPUNIT_ASSERT_EQUAL(std::size_t{4}, names.size());
    CPPUNIT_ASSERT_EQUAL(std::string("B"), names[0]);  // resumes at the limited item
    CPPUNIT_ASSERT_EQUAL(std::string("A"), names[3]);

    // Steam's own 429 has no Retry-After.
    host_->http_client.on(kOverview, sources_test::status(429));
    const FetchResult bare = source.fetch();
    CPPUNIT_ASSERT(bare.status.code() == Status::Code::kRateLimited);
    CPPUNIT_ASSERT(!bare.retry_after_seconds.has_value());
  }

  void tooLargePassesThrough() {
    host_->settings["items"] = "A";
    host_->settings["max_bytes"] = "512";
    host_->http_client.on(kOverview, MockHttp::failure(HttpResponse::Error::kTooLarge, "cap"));
    SteamMarketSource source(*host_);
    CPPUNIT_ASSERT(source.fetch().status.code() == Status::Code::kTooLarge);
    CPPUNIT_ASSERT_EQUAL(std::size_t{512}, host_->http_client.requests().at(0).max_body_bytes);
  }

  void rotatesConfiguredItemsAcrossFetches() {
    host_->settings["items"] = "A,B,C";
    host_->settings["requests_per_minute"] = "2";
    host_->http_client.on(kOverview, MockHttp::ok(R"({"success":true,"lowest_price":"$1"})"));
    SteamMarketSource source(*host_);
    for (int i = 0; i < 3; ++i)
      CPPUNIT_ASSERT_EQUAL(std::size_t{2}, source.fetch().observations.size());
    const std::vector<std::string> expected = {"A", "B", "C", "A", "B", "C"};
    CPPUNIT_ASSERT(expected == requestedNames());
  }

  void rotatesCatalogueByIdAcrossFetches() {
    for (const char* name : {"I1", "I2", "I3", "I4", "I5"}) host_->catalog_items.add(name);
    host_->settings["requests_per_minute"] = "2";
    host_->http_client.on(kOverview, MockHttp::ok(R"({"success":true,"lowest_price":"$1"})"));
    SteamMarketSource source(*host_);
    source.fetch();
    source.fetch();
    source.fetch();
    host_->catalog_items.add("I6");  // the catalogue grows while the daemon runs
    source.fetch();
    const std::vector<std::string> expected = {"I1", "I2", "I3", "I4", "I5", "I1", "I2", "I3"};
    CPPUNIT_ASSERT(expected == requestedNames());
    source.fetch();
    const auto names = requestedNames(8);
    CPPUNIT_ASSERT_EQUAL(std::string("I4"), names.at(0));
    CPPUNIT_ASSERT_EQUAL(std::string("I5"), names.at(1));
  }

  void heldItemsComeFirstThenTheCatalogue() {
    for (const char* name : {"I1", "I2", "I3", "I4", "I5", "I6"}) host_->catalog_items.add(name);
    host_->catalog_items.held = {4, 6};  // in someone's portfolio
    host_->settings["requests_per_minute"] = "3";
    host_->http_client.on(kOverview, MockHttp::ok(R"({"success":true,"lowest_price":"$1"})"));
    SteamMarketSource source(*host_);
    source.fetch();
    source.fetch();
    source.fetch();
    // Every poll: the held items, then one step of the catalogue rotation, which skips
    // what it has just polled as held.
    const std::vector<std::string> expected = {"I4", "I6", "I1", "I4", "I6",
                                               "I2", "I4", "I6", "I3"};
    CPPUNIT_ASSERT(expected == requestedNames());
    source.fetch();
    const auto names = requestedNames(9);
    CPPUNIT_ASSERT((std::vector<std::string>{"I4", "I6", "I5"}) == names);
  }

  void heldItemsRotateWhenMoreThanOnePoll() {
    for (const char* name : {"I1", "I2", "I3", "I4", "I5"}) host_->catalog_items.add(name);
    host_->catalog_items.held = {1, 2, 3};
    host_->settings["requests_per_minute"] = "2";
    host_->http_client.on(kOverview, MockHttp::ok(R"({"success":true,"lowest_price":"$1"})"));
    SteamMarketSource source(*host_);
    source.fetch();
    source.fetch();
    const std::vector<std::string> expected = {"I1", "I2", "I3", "I1"};
    CPPUNIT_ASSERT(expected == requestedNames());
  }

  void capsRequestsPerFetch() {
    for (int i = 1; i <= 45; ++i) host_->catalog_items.add("Item" + std::to_string(i));
    host_->http_client.on(kOverview, MockHttp::ok(R"({"success":true,"lowest_price":"$1"})"));
    SteamMarketSource source(*host_);  // requests_per_minute defaults to 20
    CPPUNIT_ASSERT_EQUAL(std::size_t{20}, source.fetch().observations.size());
    CPPUNIT_ASSERT_EQUAL(std::size_t{20}, host_->http_client.requests().size());
    source.fetch();
    source.fetch();  // 5 left before the wrap, then 15 from the start
    const auto names = requestedNames(40);
    CPPUNIT_ASSERT_EQUAL(std::size_t{20}, names.size());
    CPPUNIT_ASSERT_EQUAL(std::string("Item41"), names.front());
    CPPUNIT_ASSERT_EQUAL(std::string("Item1"), names[5]);
    CPPUNIT_ASSERT_EQUAL(std::string("Item15"), names.back());
  }

  void smallCatalogueIsPolledOncePerFetch() {
    for (const char* name : {"X", "Y", "Z"}) host_->catalog_items.add(name);
    host_->http_client.on(kOverview, MockHttp::ok(R"({"success":true,"lowest_price":"$1"})"));
    SteamMarketSource source(*host_);
    CPPUNIT_ASSERT_EQUAL(std::size_t{3}, source.fetch().observations.size());
    CPPUNIT_ASSERT_EQUAL(std::size_t{3}, host_->http_client.requests().size());
  }

  void emptyCatalogueSendsNothing() {
    SteamMarketSource source(*host_);
    const FetchResult result = source.fetch();
    CPPUNIT_ASSERT(result.status.isOk());
    CPPUNIT_ASSERT(result.observations.empty());
    CPPUNIT_ASSERT(host_->http_client.requests().empty());
  }

  void refusesBadKeys() {
    host_->settings["requests_per_minute"] = "0";
    CPPUNIT_ASSERT_THROW(SteamMarketSource bad(*host_), std::invalid_argument);
    host_->settings["requests_per_minute"] = "20";
    host_->settings["items"] = " , ";
    CPPUNIT_ASSERT_THROW(SteamMarketSource bad(*host_), std::invalid_argument);
    host_->settings.erase("items");
    host_->settings["url"] = "steamcommunity.com";
    CPPUNIT_ASSERT_THROW(SteamMarketSource bad(*host_), std::invalid_argument);
  }

 private:
  std::unique_ptr<MockHost> host_;
};

CPPUNIT_TEST_SUITE_REGISTRATION(SteamMarketSourceTest);
