#include "JsonHttpSource.hpp"
#include "mocks/MockHost.hpp"

#include <cppunit/extensions/HelperMacros.h>

#include <memory>
#include <stdexcept>
#include <string>

using skinpulse::plugins::json_http::JsonHttpSource;
using skinpulse::plugins::json_http::parseHeaderList;
using skinpulse::plugins::json_http::parseIsoTime;
using skinpulse::plugins::json_http::parseRetryAfter;
using skinpulse::test::MockHost;
using skinpulse::test::MockHttp;
namespace sdk = skinpulse::sdk;
using Code = sdk::Status::Code;

namespace {

const char* const kUrl = "http://feed.test/v1/prices?currency=USD";

std::unique_ptr<MockHost> makeHost(const std::string& body, int status = 200,
                                   sdk::Fields headers = {}) {
  auto host = std::make_unique<MockHost>();
  host->settings["url"] = kUrl;
  host->http_client.on("http://feed.test/", MockHttp::ok(body, status, std::move(headers)));
  return host;
}

sdk::QuoteBatch fetchWith(MockHost& host) {
  JsonHttpSource source(host);
  return source.fetchQuotes();
}

std::string allLog(const MockHost& host) {
  std::string out;
  for (const auto& [level, line] : host.lines) out += line + "\n";
  return out;
}

}  // namespace

class JsonHttpSourceTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(JsonHttpSourceTest);
  CPPUNIT_TEST(readsCentsArray);
  CPPUNIT_TEST(readsMajorUnits);
  CPPUNIT_TEST(stringPricesBecomeText);
  CPPUNIT_TEST(readsTimeInBothForms);
  CPPUNIT_TEST(skipsAndCountsMalformedRows);
  CPPUNIT_TEST(allRowsMalformedIsMalformed);
  CPPUNIT_TEST(emptyArrayIsOk);
  CPPUNIT_TEST(nonArrayIsMalformed);
  CPPUNIT_TEST(invalidJsonIsMalformed);
  CPPUNIT_TEST(serverErrorIsUnavailable);
  CPPUNIT_TEST(authErrorIsRejected);
  CPPUNIT_TEST(rateLimitHonoursRetryAfter);
  CPPUNIT_TEST(tooLargeIsTooLarge);
  CPPUNIT_TEST(transportErrorsAreUnavailable);
  CPPUNIT_TEST(requestUsesDefaults);
  CPPUNIT_TEST(headersKeyIsSentNotLogged);
  CPPUNIT_TEST(refusesBadConfiguration);
  CPPUNIT_TEST(parsesIsoTimes);
  CPPUNIT_TEST(survivesHostileInput);
  CPPUNIT_TEST_SUITE_END();

 public:
  void readsCentsArray() {
    auto host = makeHost(
        R"J([{"market_hash_name":"AK-47 | Redline (Field-Tested)","price":4210,"volume":17},)J"
        R"J( {"market_hash_name":"AWP | Asiimov (Field-Tested)","price":9999.0}])J");
    const auto result = fetchWith(*host);
    CPPUNIT_ASSERT_MESSAGE(result.status.message(), result.status.isOk());
    CPPUNIT_ASSERT_EQUAL(std::size_t(2), result.quotes.size());
    const auto& first = result.quotes[0];
    CPPUNIT_ASSERT_EQUAL(std::string("AK-47 | Redline (Field-Tested)"), first.market_hash_name);
    CPPUNIT_ASSERT(first.price.form == sdk::QuotedPrice::Form::kCents);
    CPPUNIT_ASSERT_EQUAL(std::int64_t(4210), first.price.cents);
    CPPUNIT_ASSERT_EQUAL(std::int64_t(17), first.volume);
    CPPUNIT_ASSERT(!first.observed_at.has_value());
    CPPUNIT_ASSERT_EQUAL(std::int64_t(9999), result.quotes[1].price.cents);
    CPPUNIT_ASSERT_EQUAL(std::int64_t(0), result.quotes[1].volume);  // missing volume
  }

  void readsMajorUnits() {
    auto host = makeHost(R"([{"market_hash_name":"A","price":42.1,"volume":3},)"
                         R"({"market_hash_name":"B","price":7}])");
    host->settings["price_unit"] = "major";
    const auto result = fetchWith(*host);
    CPPUNIT_ASSERT(result.status.isOk());
    CPPUNIT_ASSERT_EQUAL(std::size_t(2), result.quotes.size());
    CPPUNIT_ASSERT(result.quotes[0].price.form == sdk::QuotedPrice::Form::kMajor);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(42.1, result.quotes[0].price.major, 1e-9);
    CPPUNIT_ASSERT(result.quotes[1].price.form == sdk::QuotedPrice::Form::kMajor);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(7.0, result.quotes[1].price.major, 1e-9);
  }

  void stringPricesBecomeText() {
    auto host = makeHost(R"([{"market_hash_name":"A","price":"$1,234.56"},)"
                         R"({"market_hash_name":"B","price":"1.234,56€"}])");
    const auto result = fetchWith(*host);
    CPPUNIT_ASSERT(result.status.isOk());
    CPPUNIT_ASSERT_EQUAL(std::size_t(2), result.quotes.size());
    CPPUNIT_ASSERT(result.quotes[0].price.form == sdk::QuotedPrice::Form::kText);
    CPPUNIT_ASSERT_EQUAL(std::string("$1,234.56"), result.quotes[0].price.text);
    CPPUNIT_ASSERT_EQUAL(std::string("1.234,56€"), result.quotes[1].price.text);
  }

  void readsTimeInBothForms() {
    auto host = makeHost(R"([{"market_hash_name":"A","price":1,"time":"2026-11-22T10:15:00Z"},)"
                         R"({"market_hash_name":"B","price":1,"time":1795342500},)"
                         R"({"market_hash_name":"C","price":1,"time":1795342500.75},)"
                         R"({"market_hash_name":"D","price":1,"time":"2026-11-22T11:15:00+01:00"},)"
                         R"({"market_hash_name":"E","price":1,"time":null}])");
    const auto result = fetchWith(*host);
    CPPUNIT_ASSERT(result.status.isOk());
    CPPUNIT_ASSERT_EQUAL(std::size_t(5), result.quotes.size());
    for (std::size_t i = 0; i < 4; ++i) {
      CPPUNIT_ASSERT(result.quotes[i].observed_at.has_value());
      CPPUNIT_ASSERT_EQUAL(std::int64_t(1795342500), *result.quotes[i].observed_at);
    }
    CPPUNIT_ASSERT(!result.quotes[4].observed_at.has_value());
  }

  void skipsAndCountsMalformedRows() {
    auto host = makeHost(
        R"([{"market_hash_name":"Good","price":100,"volume":1},)"
        R"(42, "text", null, [1,2],)"  // 3 not objects; an array has no name member
        R"({"price":100}, {"market_hash_name":7,"price":1}, {"market_hash_name":"  ","price":1},)"
        R"({"market_hash_name":"SecretName1","price":12.5},)"  // fractional cents
        R"({"market_hash_name":"X","price":true}, {"market_hash_name":"X"},)"
        R"({"market_hash_name":"X","price":{}}, {"market_hash_name":"X","price":""},)"
        R"({"market_hash_name":"X","price":1,"volume":-1},)"
        R"({"market_hash_name":"X","price":1,"volume":1.5},)"
        R"({"market_hash_name":"X","price":1,"volume":"3"},)"  // digits in a string: a count
        R"({"market_hash_name":"X","price":1,"time":"yesterday"},)"
        R"({"market_hash_name":"X","price":1,"time":-5},)"
        R"({"market_hash_name":"X","price":1,"time":true},)"
        R"({"market_hash_name":"Good2","price":200}])");
    const auto result = fetchWith(*host);
    CPPUNIT_ASSERT(result.status.isOk());
    CPPUNIT_ASSERT_EQUAL(std::size_t(3), result.quotes.size());
    CPPUNIT_ASSERT_EQUAL(std::int64_t(3), result.quotes[1].volume);
    CPPUNIT_ASSERT_EQUAL(std::string("Good2"), result.quotes[2].market_hash_name);
    CPPUNIT_ASSERT_EQUAL(std::size_t(1), host->lines.size());  // one summary line
    const std::string line = host->lines[0].second;
    CPPUNIT_ASSERT(host->lines[0].first == sdk::LogLevel::kWarn);
    CPPUNIT_ASSERT_MESSAGE(
        line, line.find("20 items, 3 quotes, 1 without a price, 16 malformed items skipped "
                        "(not object 3, name 4, price 4, volume 2, listings 0, time 3)") !=
                  std::string::npos);
    CPPUNIT_ASSERT(line.find("SecretName1") == std::string::npos);  // counts only
  }

  void allRowsMalformedIsMalformed() {
    auto host = makeHost(R"([{"name":"A","value":1},{"name":"B","value":2}])");
    const auto result = fetchWith(*host);
    CPPUNIT_ASSERT(result.status.code() == Code::kMalformed);
  }

  void emptyArrayIsOk() {
    auto host = makeHost("  [ ]\n");
    const auto result = fetchWith(*host);
    CPPUNIT_ASSERT(result.status.isOk());
    CPPUNIT_ASSERT(result.quotes.empty());
  }

  void nonArrayIsMalformed() {
    for (const char* body : {R"({"items":[]})", "42", R"("text")", "null", "true"}) {
      auto host = makeHost(body);
      const auto result = fetchWith(*host);
      CPPUNIT_ASSERT_MESSAGE(body, result.status.code() == Code::kMalformed);
    }
  }

  void invalidJsonIsMalformed() {
    for (const char* body : {"", "[", R"([{"market_hash_name":"A","price":1})", "<html></html>",
                             R"([{"market_hash_name":"A","price":1}] trailing)", "[NaN]"}) {
      auto host = makeHost(body);
      const auto result = fetchWith(*host);
      CPPUNIT_ASSERT_MESSAGE(body, result.status.code() == Code::kMalformed);
    }
  }

  void serverErrorIsUnavailable() {
    for (int status : {500, 502, 503, 404, 302}) {
      auto host = makeHost("[]", status);
      const auto result = fetchWith(*host);
      CPPUNIT_ASSERT(result.status.code() == Code::kUnavailable);
      CPPUNIT_ASSERT(result.status.message().find(std::to_string(status)) != std::string::npos);
    }
  }

  void authErrorIsRejected() {
    auto host = makeHost("{}", 401);
    CPPUNIT_ASSERT(fetchWith(*host).status.code() == Code::kRejected);
  }

  void rateLimitHonoursRetryAfter() {
    auto host = makeHost("slow down", 429, {{"retry-after", " 120 "}});
    auto result = fetchWith(*host);
    CPPUNIT_ASSERT(result.status.code() == Code::kRateLimited);
    CPPUNIT_ASSERT(result.retry_after_seconds.has_value());
    CPPUNIT_ASSERT_EQUAL(std::int64_t(120), *result.retry_after_seconds);

    // HTTP-date: 2026-11-22T10:15:00Z is MockHost's now.
    host = makeHost("", 429, {{"Retry-After", "Sun, 22 Nov 2026 10:16:30 GMT"}});
    result = fetchWith(*host);
    CPPUNIT_ASSERT(result.status.code() == Code::kRateLimited);
    CPPUNIT_ASSERT_EQUAL(std::int64_t(90), *result.retry_after_seconds);

    host = makeHost("", 429);
    result = fetchWith(*host);
    CPPUNIT_ASSERT(result.status.code() == Code::kRateLimited);
    CPPUNIT_ASSERT(!result.retry_after_seconds.has_value());

    CPPUNIT_ASSERT(!parseRetryAfter("soon", 0).has_value());
    CPPUNIT_ASSERT(!parseRetryAfter("-5", 0).has_value());
    CPPUNIT_ASSERT(!parseRetryAfter("", 0).has_value());
    CPPUNIT_ASSERT(!parseRetryAfter("Sun, 22 Foo 2026 10:16:30 GMT", 0).has_value());
    CPPUNIT_ASSERT(!parseRetryAfter("Sun, 31 Nov 2026 10:16:30 GMT", 0).has_value());
    CPPUNIT_ASSERT(!parseRetryAfter("Sun, 22 Nov 2026 10:16:30 UTC", 0).has_value());
    CPPUNIT_ASSERT_EQUAL(std::int64_t(86400), *parseRetryAfter("99999999999", 0));
    CPPUNIT_ASSERT_EQUAL(std::int64_t(0),
                         *parseRetryAfter("Sun, 22 Nov 2026 10:16:30 GMT", 1795342500 + 1000));
  }

  void tooLargeIsTooLarge() {
    MockHost host;
    host.settings["url"] = kUrl;
    host.settings["max_bytes"] = "1000";
    host.http_client.on("http://feed.test/",
                        MockHttp::failure(sdk::HttpResponse::Error::kTooLarge, "body over cap"));
    const auto result = fetchWith(host);
    CPPUNIT_ASSERT(result.status.code() == Code::kTooLarge);
    CPPUNIT_ASSERT_EQUAL(std::size_t(1000), host.http_client.requests().at(0).max_body_bytes);
  }

  void transportErrorsAreUnavailable() {
    for (auto error : {sdk::HttpResponse::Error::kTimeout, sdk::HttpResponse::Error::kConnect,
                       sdk::HttpResponse::Error::kProtocol}) {
      MockHost host;
      host.settings["url"] = kUrl;
      host.http_client.on("http://feed.test/", MockHttp::failure(error, "boom"));
      CPPUNIT_ASSERT(fetchWith(host).status.code() == Code::kUnavailable);
    }
  }

  void requestUsesDefaults() {
    auto host = makeHost("[]");
    fetchWith(*host);
    const auto requests = host->http_client.requests();
    CPPUNIT_ASSERT_EQUAL(std::size_t(1), requests.size());
    const auto& request = requests[0];
    CPPUNIT_ASSERT_EQUAL(std::string("GET"), request.method);
    CPPUNIT_ASSERT_EQUAL(std::string(kUrl), request.url);
    CPPUNIT_ASSERT(request.timeout == std::chrono::milliseconds(30000));
    CPPUNIT_ASSERT_EQUAL(std::size_t(64u * 1024u * 1024u), request.max_body_bytes);  // bulk feeds
    CPPUNIT_ASSERT(request.headers == sdk::Fields({{"Accept", "application/json"}}));
  }

  void headersKeyIsSentNotLogged() {
    auto host = makeHost(R"([{"market_hash_name":"A","price":1},{"market_hash_name":5}])");
    host->settings["headers"] = "X-Api-Key: s3cr3t-value; ; Authorization:  Bearer tok123  ";
    fetchWith(*host);
    const auto request = host->http_client.requests().at(0);
    const sdk::Fields expected = {{"Accept", "application/json"},
                                  {"X-Api-Key", "s3cr3t-value"},
                                  {"Authorization", "Bearer tok123"}};
    CPPUNIT_ASSERT(request.headers == expected);
    const std::string log = allLog(*host);
    CPPUNIT_ASSERT(!log.empty());
    CPPUNIT_ASSERT(log.find("s3cr3t") == std::string::npos);
    CPPUNIT_ASSERT(log.find("tok123") == std::string::npos);

    // A user-supplied Accept replaces the default.
    CPPUNIT_ASSERT(parseHeaderList("Accept: text/plain") ==
                   sdk::Fields({{"Accept", "text/plain"}}));
    for (const char* bad :
         {"NoColon s3cr3t", ": s3cr3t", "Bad Name: s3cr3t", "X-Key: s3cr3t\r\nInjected: 1",
          "Host: evil.test", "Content-Length: 5"}) {
      try {
        parseHeaderList(bad);
        CPPUNIT_FAIL(std::string("accepted ") + bad);
      } catch (const std::runtime_error& e) {
        CPPUNIT_ASSERT(std::string(e.what()).find("s3cr3t") == std::string::npos);
      }
    }
  }

  void refusesBadConfiguration() {
    const std::vector<std::pair<std::string, std::string>> cases = {{"url", ""},
                                                                    {"url", "ftp://feed.test/"},
                                                                    {"price_unit", "dollars"},
                                                                    {"max_bytes", "0"},
                                                                    {"max_bytes", "-1"},
                                                                    {"max_bytes", "10MB"},
                                                                    {"max_bytes", "99999999999999"},
                                                                    {"headers", "garbage"}};
    for (const auto& [key, value] : cases) {
      MockHost host;
      host.settings["url"] = kUrl;
      host.settings[key] = value;
      CPPUNIT_ASSERT_THROW_MESSAGE(key + "=" + value, JsonHttpSource{host}, std::runtime_error);
    }
    MockHost none;
    CPPUNIT_ASSERT_THROW(JsonHttpSource{none}, std::runtime_error);
  }

  void parsesIsoTimes() {
    const std::int64_t t = 1795342500;
    CPPUNIT_ASSERT_EQUAL(t, *parseIsoTime("2026-11-22T10:15:00Z"));
    CPPUNIT_ASSERT_EQUAL(t, *parseIsoTime("2026-11-22T10:15:00.999Z"));
    CPPUNIT_ASSERT_EQUAL(t, *parseIsoTime("2026-11-22 10:15:00"));
    CPPUNIT_ASSERT_EQUAL(t, *parseIsoTime("2026-11-22T10:15Z"));
    CPPUNIT_ASSERT_EQUAL(t, *parseIsoTime("2026-11-22T05:15:00-05:00"));
    CPPUNIT_ASSERT_EQUAL(t, *parseIsoTime("2026-11-22T12:15:00+0200"));
    CPPUNIT_ASSERT_EQUAL(t - 36900, *parseIsoTime("2026-11-22"));
    CPPUNIT_ASSERT_EQUAL(std::int64_t(1709251199), *parseIsoTime("2024-02-29T23:59:59Z"));
    for (const char* bad :
         {"", "yesterday", "2026-13-01T00:00:00Z", "2026-02-29T00:00:00Z", "2026-11-22T25:00:00Z",
          "2026-11-22T10:15:00.Z", "2026-11-22T10:15:00Zjunk", "2026-11-22T10:15:00+2",
          "1969-12-31T23:59:59Z", "26-11-22T10:15:00Z"}) {
      CPPUNIT_ASSERT_MESSAGE(bad, !parseIsoTime(bad).has_value());
    }
  }

  void survivesHostileInput() {
    // Deep nesting: refused by the parser's depth limit, no stack overflow.
    auto host = makeHost(std::string(200000, '[') + std::string(200000, ']'));
    CPPUNIT_ASSERT(fetchWith(*host).status.code() == Code::kMalformed);
    host = makeHost(R"([{"market_hash_name":"A","price":1,"x":)" + std::string(100, '[') +
                    std::string(100, ']') + "}]");
    CPPUNIT_ASSERT(fetchWith(*host).status.code() == Code::kMalformed);

    // Huge numbers: either the document is refused or the row is skipped; never a crash.
    for (const char* number : {"1e400", "-1e400", "123456789012345678901234567890",
                               "18446744073709551615", "9223372036854775808", "1e-400"}) {
      host =
          makeHost(std::string(R"([{"market_hash_name":"A","price":)") + number + R"(,"volume":)" +
                   number + R"(,"time":)" + number + R"(},{"market_hash_name":"B","price":5}])");
      const auto result = fetchWith(*host);
      CPPUNIT_ASSERT_MESSAGE(number,
                             result.status.isOk() || result.status.code() == Code::kMalformed);
      if (result.status.isOk()) {
        // Out-of-range values skip row A; 1e-400 is a plain 0 (the host drops zero prices).
        CPPUNIT_ASSERT_MESSAGE(number, !result.quotes.empty());
        CPPUNIT_ASSERT_EQUAL(std::string("B"), result.quotes.back().market_hash_name);
        if (result.quotes.size() == 2) {
          CPPUNIT_ASSERT_EQUAL(std::int64_t(0), result.quotes[0].price.cents);
        }
      }
    }
    host = makeHost(R"([{"market_hash_name":"A","price":1e300},)"
                    R"({"market_hash_name":"B","price":1e300,"volume":1e300}])");
    host->settings["price_unit"] = "major";
    auto result = fetchWith(*host);
    CPPUNIT_ASSERT(result.status.isOk());
    CPPUNIT_ASSERT_EQUAL(std::size_t(1), result.quotes.size());

    // NaN-like strings are text for the host to refuse; they are not numbers here.
    host = makeHost(R"([{"market_hash_name":"A","price":"NaN"},)"
                    R"({"market_hash_name":"B","price":"Infinity","time":"NaN"},)"
                    R"({"market_hash_name":"C","price":"-inf","volume":"NaN"}])");
    result = fetchWith(*host);
    CPPUNIT_ASSERT(result.status.isOk());
    CPPUNIT_ASSERT_EQUAL(std::size_t(1), result.quotes.size());
    CPPUNIT_ASSERT(result.quotes[0].price.form == sdk::QuotedPrice::Form::kText);

    // Control characters, NUL bytes and invalid UTF-8 in strings.
    host = makeHost(std::string("[{\"market_hash_name\":\"A\\u0000B\xff\xfe\",\"price\":1}]"));
    result = fetchWith(*host);
    CPPUNIT_ASSERT(result.status.isOk() || result.status.code() == Code::kMalformed);
    host = makeHost(std::string("[\"\\ud800\", {\"market_hash_name\":\"\\uDFFF\",\"price\":1}]"));
    result = fetchWith(*host);
    CPPUNIT_ASSERT(result.status.isOk() || result.status.code() == Code::kMalformed);

    // Many rows: fine.
    std::string many = "[";
    for (int i = 0; i < 20000; ++i) {
      many += (i ? "," : "") + std::string(R"({"market_hash_name":"N)") + std::to_string(i) +
              R"(","price":)" + std::to_string(i + 1) + "}";
    }
    host = makeHost(many + "]");
    result = fetchWith(*host);
    CPPUNIT_ASSERT(result.status.isOk());
    CPPUNIT_ASSERT_EQUAL(std::size_t(20000), result.quotes.size());
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(JsonHttpSourceTest);
