#include "CsfloatSource.hpp"
#include "SourcesTestSupport.hpp"

#include <cppunit/extensions/HelperMacros.h>

#include <memory>
#include <stdexcept>

using skinpulse::plugins::csfloat::CsfloatSource;
using skinpulse::plugins::csfloat::parseRfc3339;
using skinpulse::sdk::FetchResult;
using skinpulse::sdk::HttpResponse;
using skinpulse::sdk::QuoteBatch;
using skinpulse::sdk::QuotedPrice;
using skinpulse::sdk::Status;
using skinpulse::test::MockHost;
using skinpulse::test::MockHttp;

namespace {
const std::string kBase = "http://csfloat.test";
const std::string kListings = kBase + "/api/v1/listings?limit=50&sort_by=most_recent";
const std::string kSecret = "s3cr3t-api-key";
const std::string kPriceList = kBase + "/api/v1/listings/price-list";

std::string listing(const std::string& name, long long cents, const std::string& created,
                    const std::string& type = "buy_now") {
  return R"({"id":"1","created_at":")" + created + R"(","type":")" + type + R"(","price":)" +
         std::to_string(cents) + R"(,"state":"listed","item":{"market_hash_name":")" + name +
         R"("}})";
}

std::string page(const std::string& listings, const std::string& cursor) {
  return R"({"cursor":)" + (cursor.empty() ? std::string("null") : "\"" + cursor + "\"") +
         R"(,"data":[)" + listings + "]}";
}
}  // namespace

class CsfloatSourceTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(CsfloatSourceTest);
  CPPUNIT_TEST(parsesEnvelopeFixtureAndSendsAuthorization);
  CPPUNIT_TEST(parsesDocumentedBareArray);
  CPPUNIT_TEST(keepsCheapestListingPerItem);
  CPPUNIT_TEST(followsCursorUntilMaxPages);
  CPPUNIT_TEST(stopsAtMissingCursor);
  CPPUNIT_TEST(skipsListingsWithNullsAndBadFields);
  CPPUNIT_TEST(malformedJsonIsMalformed);
  CPPUNIT_TEST(wrongTopLevelTypeIsMalformed);
  CPPUNIT_TEST(deepNestingIsMalformed);
  CPPUNIT_TEST(serverErrorIsUnavailable);
  CPPUNIT_TEST(rateLimitCarriesRetryAfter);
  CPPUNIT_TEST(tooLargePassesThrough);
  CPPUNIT_TEST(badKeyIsRejectedAndNeverLogged);
  CPPUNIT_TEST(parsesRfc3339);
  CPPUNIT_TEST(refusesBadKeys);
  CPPUNIT_TEST(priceListIsKeylessCentsAndListings);
  CPPUNIT_TEST(priceListSendsAKeyOnlyWhenSet);
  CPPUNIT_TEST(priceListFailuresAndHostileRows);
  CPPUNIT_TEST_SUITE_END();

 public:
  void setUp() override {
    host_ = std::make_unique<MockHost>();
    host_->settings["url"] = kBase;
    host_->settings["api_key"] = kSecret;
    host_->settings["mode"] = "listings";  // the price list has tests of its own below
  }

  void parsesEnvelopeFixtureAndSendsAuthorization() {
    host_->http_client.on(kListings,
                          MockHttp::ok(sources_test::fixture("csfloat_listings_page_shape.json")));
    CsfloatSource source(*host_);
    const FetchResult result = source.fetch();
    CPPUNIT_ASSERT(result.status.isOk());
    CPPUNIT_ASSERT_EQUAL(std::size_t{1}, result.observations.size());
    const auto& o = result.observations[0];
    CPPUNIT_ASSERT_EQUAL(std::string("M4A4 | Poseidon (Factory New)"), o.market_hash_name);
    CPPUNIT_ASSERT(o.price.form == QuotedPrice::Form::kCents);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{260000}, o.price.cents);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{1623617121}, o.observed_at.value());  // 2021-06-13T20:45:21Z
    const auto requests = host_->http_client.requests();
    // The fixture's cursor is followed once, percent-encoded; the same page comes back
    // with the same cursor, so paging stops there.
    CPPUNIT_ASSERT_EQUAL(std::size_t{2}, requests.size());
    CPPUNIT_ASSERT_EQUAL(kListings, requests[0].url);
    CPPUNIT_ASSERT_EQUAL(kListings + "&cursor=%3Copaque%20cursor%20string%3E", requests[1].url);
    for (const auto& request : requests) {
      bool authorized = false;
      for (const auto& [name, value] : request.headers) {
        if (name == "Authorization" && value == kSecret) authorized = true;
      }
      CPPUNIT_ASSERT(authorized);
      CPPUNIT_ASSERT_EQUAL(std::int64_t{30000}, static_cast<std::int64_t>(request.timeout.count()));
      CPPUNIT_ASSERT_EQUAL(std::size_t{4} * 1024 * 1024, request.max_body_bytes);
    }
  }

  void parsesDocumentedBareArray() {
    host_->http_client.on(
        kListings,
        MockHttp::ok("[" + sources_test::fixture("csfloat_listing_documented.json") + "]"));
    CsfloatSource source(*host_);
    const FetchResult result = source.fetch();
    CPPUNIT_ASSERT(result.status.isOk());
    CPPUNIT_ASSERT_EQUAL(std::size_t{1}, result.observations.size());
    CPPUNIT_ASSERT_EQUAL(std::int64_t{260000}, result.observations[0].price.cents);
    CPPUNIT_ASSERT_EQUAL(std::size_t{1}, host_->http_client.requests().size());  // no cursor
  }

  void keepsCheapestListingPerItem() {
    const std::string body = page(listing("A", 500, "2026-11-22T10:00:00Z") + "," +
                                      listing("B", 90, "2026-11-22T09:00:00Z") + "," +
                                      listing("A", 450, "2026-11-22T08:00:00+02:00") + "," +
                                      listing("A", 470, "2026-11-22T07:00:00Z") + "," +
                                      listing("A", 100, "2026-11-22T06:00:00Z", "auction"),
                                  "");
    host_->http_client.on(kListings, MockHttp::ok(body));
    CsfloatSource source(*host_);
    const FetchResult result = source.fetch();
    CPPUNIT_ASSERT(result.status.isOk());
    CPPUNIT_ASSERT_EQUAL(std::size_t{2}, result.observations.size());
    CPPUNIT_ASSERT_EQUAL(std::string("A"), result.observations[0].market_hash_name);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{450}, result.observations[0].price.cents);
    CPPUNIT_ASSERT_EQUAL(parseRfc3339("2026-11-22T06:00:00Z").value(),
                         result.observations[0].observed_at.value());
    CPPUNIT_ASSERT_EQUAL(std::int64_t{90}, result.observations[1].price.cents);
  }

  void followsCursorUntilMaxPages() {
    host_->settings["max_pages"] = "3";
    host_->http_client.on(kListings, MockHttp::ok(page(listing("A", 500, "x"), "c1")));
    host_->http_client.on(kListings + "&cursor=c1",
                          MockHttp::ok(page(listing("A", 400, "x"), "c2")));
    host_->http_client.on(kListings + "&cursor=c2",
                          MockHttp::ok(page(listing("B", 300, "x"), "c3")));
    host_->http_client.on(kListings + "&cursor=c3", MockHttp::ok(page(listing("A", 1, "x"), "c4")));
    CsfloatSource source(*host_);
    const FetchResult result = source.fetch();
    CPPUNIT_ASSERT(result.status.isOk());
    CPPUNIT_ASSERT_EQUAL(std::size_t{3}, host_->http_client.requests().size());
    CPPUNIT_ASSERT_EQUAL(std::size_t{2}, result.observations.size());
    CPPUNIT_ASSERT_EQUAL(std::int64_t{400}, result.observations[0].price.cents);  // page 4 unseen
    CPPUNIT_ASSERT(!result.observations[0].observed_at.has_value());              // "x" is no time
  }

  void stopsAtMissingCursor() {
    host_->http_client.on(kListings, MockHttp::ok(page(listing("A", 500, "x"), "c1")));
    host_->http_client.on(kListings + "&cursor=c1",
                          MockHttp::ok(R"({"data":[)" + listing("B", 300, "x") + "]}"));
    CsfloatSource source(*host_);  // max_pages defaults to 5
    const FetchResult result = source.fetch();
    CPPUNIT_ASSERT(result.status.isOk());
    CPPUNIT_ASSERT_EQUAL(std::size_t{2}, host_->http_client.requests().size());
    CPPUNIT_ASSERT_EQUAL(std::size_t{2}, result.observations.size());
    // An empty page ends paging too, even with a cursor.
    host_->http_client.on(kListings + "&cursor=c1", MockHttp::ok(page("", "c2")));
    source.fetch();
    CPPUNIT_ASSERT_EQUAL(std::size_t{4}, host_->http_client.requests().size());
  }

  void skipsListingsWithNullsAndBadFields() {
    const std::string body = R"({"cursor":null,"data":[
      {"price":null,"item":{"market_hash_name":"A"}},
      {"price":"12","item":{"market_hash_name":"A"}},
      {"price":12,"item":null},
      {"price":12,"item":{"market_hash_name":null}},
      {"price":12,"state":"sold","item":{"market_hash_name":"A"}},
      {"price":18446744073709551615,"item":{"market_hash_name":"A"}},
      {"price":true,"item":{"market_hash_name":"A"}},
      7,
      {"price":15,"created_at":null,"item":{"market_hash_name":"C"}}
    ]})";
    host_->http_client.on(kListings, MockHttp::ok(body));
    CsfloatSource source(*host_);
    const FetchResult result = source.fetch();
    CPPUNIT_ASSERT(result.status.isOk());
    CPPUNIT_ASSERT_EQUAL(std::size_t{1}, result.observations.size());
    CPPUNIT_ASSERT_EQUAL(std::string("C"), result.observations[0].market_hash_name);
    CPPUNIT_ASSERT(!result.observations[0].observed_at.has_value());
  }

  void malformedJsonIsMalformed() {
    host_->http_client.on(kListings, MockHttp::ok(R"({"cursor":"c","data":[{)"));
    CsfloatSource source(*host_);
    CPPUNIT_ASSERT(source.fetch().status.code() == Status::Code::kMalformed);
  }

  void deepNestingIsMalformed() {
    std::string body = R"({"cursor":"c","data":[],"x":)";
    for (int i = 0; i < 40; ++i) body += R"({"a":)";
    body += "1";
    for (int i = 0; i < 40; ++i) body += "}";
    body += "}";
    host_->http_client.on(kListings, MockHttp::ok(body));
    CsfloatSource source(*host_);
    CPPUNIT_ASSERT(source.fetch().status.code() == Status::Code::kMalformed);
  }

  void wrongTopLevelTypeIsMalformed() {
    CsfloatSource source(*host_);
    host_->http_client.on(kListings, MockHttp::ok(R"("listings")"));
    CPPUNIT_ASSERT(source.fetch().status.code() == Status::Code::kMalformed);
    host_->http_client.on(kListings, MockHttp::ok(R"({"cursor":"c","data":{"a":1}})"));
    CPPUNIT_ASSERT(source.fetch().status.code() == Status::Code::kMalformed);
  }

  void serverErrorIsUnavailable() {
    // Page 2 fails after page 1 read well: page 1's price is kept, page 2 is named
    // (docs/api.md §19), and the poll is not a failure.
    host_->http_client.on(kListings, MockHttp::ok(page(listing("A", 500, "x"), "c1")));
    host_->http_client.on(kListings + "&cursor=c1", sources_test::status(500, "{}"));
    CsfloatSource source(*host_);
    const skinpulse::sdk::PollReport kept = source.poll();
    CPPUNIT_ASSERT_MESSAGE(kept.status.message(), kept.status.isOk());
    CPPUNIT_ASSERT_EQUAL(std::size_t{1}, kept.quotes.size());
    CPPUNIT_ASSERT_EQUAL(std::int64_t{1}, kept.rows_read);
    CPPUNIT_ASSERT_EQUAL(std::size_t{1}, kept.failed_parts.size());
    CPPUNIT_ASSERT_EQUAL(std::string("page 2"), kept.failed_parts[0].part);
    CPPUNIT_ASSERT(kept.failed_parts[0].status.code() == Status::Code::kUnavailable);
    // The first page failing leaves nothing read well: the poll fails.
    host_->http_client.on(kListings, sources_test::status(500, "{}"));
    const FetchResult result = source.fetch();
    CPPUNIT_ASSERT(result.status.code() == Status::Code::kUnavailable);
    host_->http_client.on(kListings, MockHttp::failure(HttpResponse::Error::kTimeout, "slow"));
    CPPUNIT_ASSERT(source.fetch().status.code() == Status::Code::kUnavailable);
  }

  void rateLimitCarriesRetryAfter() {
    host_->http_client.on(kListings, sources_test::status(429, "", {{"Retry-After", "42"}}));
    CsfloatSource source(*host_);
    const FetchResult result = source.fetch();
    CPPUNIT_ASSERT(result.status.code() == Status::Code::kRateLimited);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{42}, result.retry_after_seconds.value());
    CPPUNIT_ASSERT(result.observations.empty());
  }

  void tooLargePassesThrough() {
    host_->http_client.on(kListings, MockHttp::failure(HttpResponse::Error::kTooLarge, "cap"));
    CsfloatSource source(*host_);
    CPPUNIT_ASSERT(source.fetch().status.code() == Status::Code::kTooLarge);
  }

  void badKeyIsRejectedAndNeverLogged() {
    host_->http_client.on(kListings, sources_test::status(401, R"({"message":"bad key"})"));
    CsfloatSource source(*host_);
    const FetchResult result = source.fetch();
    CPPUNIT_ASSERT(result.status.code() == Status::Code::kRejected);
    CPPUNIT_ASSERT(result.status.message().find(kSecret) == std::string::npos);
    host_->http_client.on(kListings, MockHttp::ok(page(listing("A", 5, "x"), "")));
    source.fetch();
    CPPUNIT_ASSERT(!host_->lines.empty());
    for (const auto& [level, line] : host_->lines) {
      CPPUNIT_ASSERT(line.find(kSecret) == std::string::npos);
    }
  }

  void parsesRfc3339() {
    CPPUNIT_ASSERT_EQUAL(std::int64_t{0}, parseRfc3339("1970-01-01T00:00:00Z").value());
    CPPUNIT_ASSERT_EQUAL(std::int64_t{1623617121},
                         parseRfc3339("2021-06-13T20:45:21.311794Z").value());
    CPPUNIT_ASSERT_EQUAL(std::int64_t{1623617121},
                         parseRfc3339("2021-06-13T22:45:21+02:00").value());
    CPPUNIT_ASSERT_EQUAL(std::int64_t{1795342500}, parseRfc3339("2026-11-22T10:15:00Z").value());
    CPPUNIT_ASSERT(!parseRfc3339("2021-06-13").has_value());
    CPPUNIT_ASSERT(!parseRfc3339("2021-06-13T20:45:21").has_value());
    CPPUNIT_ASSERT(!parseRfc3339("2021-13-13T20:45:21Z").has_value());
    CPPUNIT_ASSERT(!parseRfc3339("2021-06-13T20:45:21.Z").has_value());
    CPPUNIT_ASSERT(!parseRfc3339("2021-06-13T20:45:21Zjunk").has_value());
  }

  void refusesBadKeys() {
    host_->settings["max_pages"] = "0";
    CPPUNIT_ASSERT_THROW(CsfloatSource bad(*host_), std::invalid_argument);
    host_->settings.erase("max_pages");
    host_->settings.erase("api_key");
    try {
      CsfloatSource bad(*host_);
      CPPUNIT_FAIL("missing api_key accepted");
    } catch (const std::invalid_argument& e) {
      CPPUNIT_ASSERT(std::string(e.what()).find("api_key") != std::string::npos);
    }
  }

  // mode = price_list (the default): GET /api/v1/listings/price-list, no key needed.
  QuoteBatch pollPriceList(skinpulse::sdk::HttpResponse response) {
    host_->settings.erase("mode");
    host_->http_client.on(kPriceList, std::move(response));
    CsfloatSource source(*host_);
    return source.fetchQuotes();
  }

  void priceListIsKeylessCentsAndListings() {
    host_->settings.erase("api_key");
    const QuoteBatch batch =
        pollPriceList(MockHttp::ok(sources_test::fixture("csfloat_price_list_shape.json")));
    CPPUNIT_ASSERT_MESSAGE(batch.status.message(), batch.status.isOk());
    CPPUNIT_ASSERT_EQUAL(std::size_t{4}, batch.quotes.size());
    const auto& ak = batch.quotes[0];
    CPPUNIT_ASSERT_EQUAL(std::string("AK-47 | Redline (Field-Tested)"), ak.market_hash_name);
    CPPUNIT_ASSERT(ak.price.form == QuotedPrice::Form::kCents);
    // min_price is integer cents: 3890 = $38.90, inside the $10-$60 a Field-Tested Redline costs.
    CPPUNIT_ASSERT(ak.price.cents >= 1000 && ak.price.cents <= 6000);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{3890}, ak.price.cents);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{311}, ak.listings.value_or(-1));  // `quantity` = listings
    CPPUNIT_ASSERT_EQUAL(std::int64_t{0}, ak.volume);
    CPPUNIT_ASSERT(!ak.kind.has_value() && !ak.observed_at.has_value());
    const auto requests = host_->http_client.requests();
    CPPUNIT_ASSERT_EQUAL(std::size_t{1}, requests.size());
    CPPUNIT_ASSERT_EQUAL(kPriceList, requests[0].url);
    for (const auto& [name, value] : requests[0].headers) {
      CPPUNIT_ASSERT(name != "Authorization");
    }
  }

  void priceListSendsAKeyOnlyWhenSet() {
    pollPriceList(MockHttp::ok("[]"));
    bool sent = false;
    const auto requests = host_->http_client.requests();
    for (const auto& [name, value] : requests.at(0).headers) {
      sent = sent || (name == "Authorization" && value == kSecret);
    }
    CPPUNIT_ASSERT(sent);
    for (const auto& line : host_->lines) {
      CPPUNIT_ASSERT(line.second.find(kSecret) == std::string::npos);
    }
    host_->settings["mode"] = "cheapest";
    CPPUNIT_ASSERT_THROW(CsfloatSource bad(*host_), std::invalid_argument);
  }

  void priceListFailuresAndHostileRows() {
    const QuoteBatch limited =
        pollPriceList(sources_test::status(429, "", {{"Retry-After", "60"}}));
    CPPUNIT_ASSERT(limited.status.code() == Status::Code::kRateLimited);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{60}, limited.retry_after_seconds.value_or(-1));
    CPPUNIT_ASSERT(pollPriceList(MockHttp::ok(R"({"data":[]})")).status.code() ==
                   Status::Code::kMalformed);
    CPPUNIT_ASSERT(pollPriceList(MockHttp::ok("[" + std::string(100, '['))).status.code() ==
                   Status::Code::kMalformed);
    const QuoteBatch rows = pollPriceList(MockHttp::ok(
        R"([{"market_hash_name":"Recoil Case","min_price":49.5},{"market_hash_name":7,"min_price":1},)"
        R"({"market_hash_name":"Fracture Case","min_price":"41","quantity":-2},)"
        R"({"market_hash_name":"Dreams & Nightmares Case","min_price":0,"quantity":0}])"));
    CPPUNIT_ASSERT_MESSAGE(rows.status.message(), rows.status.isOk());
    CPPUNIT_ASSERT_EQUAL(std::size_t{1}, rows.quotes.size());  // fractional cents, bad name, 0
    CPPUNIT_ASSERT_EQUAL(std::string("Fracture Case"), rows.quotes[0].market_hash_name);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{41}, rows.quotes[0].price.cents);
    CPPUNIT_ASSERT(!rows.quotes[0].listings.has_value());
  }

 private:
  std::unique_ptr<MockHost> host_;
};

CPPUNIT_TEST_SUITE_REGISTRATION(CsfloatSourceTest);
