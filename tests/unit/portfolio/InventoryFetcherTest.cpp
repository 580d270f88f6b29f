#include "portfolio/InventoryError.hpp"
#include "portfolio/InventoryFetcher.hpp"

#include <cppunit/extensions/HelperMacros.h>

#include <deque>

using namespace skinpulse;
using namespace skinpulse::portfolio;

namespace {

/// Answers requests from a script and remembers them.
class ScriptedHttp final : public sdk::HttpClient {
 public:
  std::deque<sdk::HttpResponse> answers;
  std::vector<sdk::HttpRequest> requests;

  sdk::HttpResponse send(const sdk::HttpRequest& request) override {
    requests.push_back(request);
    if (answers.empty()) throw std::logic_error("unexpected request " + request.url);
    auto answer = answers.front();
    answers.pop_front();
    return answer;
  }

  void ok(const std::string& body) {
    sdk::HttpResponse response;
    response.status = 200;
    response.body = body;
    answers.push_back(response);
  }
  void status(int code, const std::string& body = "null") {
    sdk::HttpResponse response;
    response.status = code;
    response.body = body;
    answers.push_back(response);
  }
  void error(sdk::HttpResponse::Error kind) {
    sdk::HttpResponse response;
    response.error = kind;
    response.error_message = "GET http://inventory/...: failed";
    answers.push_back(response);
  }
};

std::string asset(const std::string& id, const std::string& classid, int amount = 1) {
  return R"({"assetid":")" + id + R"(","classid":")" + classid +
         R"(","instanceid":"0","amount":")" + std::to_string(amount) + R"("})";
}

std::string description(const std::string& classid, const std::string& name) {
  return R"({"classid":")" + classid + R"(","instanceid":"0","market_hash_name":")" + name +
         R"("})";
}

std::string page(const std::string& assets, const std::string& descriptions,
                 const std::string& last = "") {
  std::string body =
      R"({"success":1,"assets":[)" + assets + R"(],"descriptions":[)" + descriptions + "]";
  if (!last.empty()) body += R"(,"more_items":1,"last_assetid":")" + last + R"(")";
  return body + "}";
}

InventoryFetchOptions options() {
  InventoryFetchOptions o;
  o.base_url = "http://inventory.test/inventory/";
  o.max_page_bytes = 4096;
  o.page_timeout = std::chrono::milliseconds(1500);
  o.max_pages = 3;
  return o;
}

InventoryError::Kind failureOf(ScriptedHttp& http) {
  try {
    InventoryFetcher(http, options()).fetch("76561197960287930");
  } catch (const InventoryError& e) {
    return e.kind();
  }
  CPPUNIT_FAIL("fetch did not fail");
  return InventoryError::Kind::kUpstream;
}

}  // namespace

class InventoryFetcherTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(InventoryFetcherTest);
  CPPUNIT_TEST(followsLastAssetIdAndSumsByName);
  CPPUNIT_TEST(sendsTheCapAndTimeoutOnEveryPage);
  CPPUNIT_TEST(countsARepeatedAssetOnce);
  CPPUNIT_TEST(refusesMoreThanThePageCap);
  CPPUNIT_TEST(acceptsExactlyThePageCap);
  CPPUNIT_TEST(everyPageTakesATokenOfTheSharedBudget);
  CPPUNIT_TEST(aFailingUsersFetchLeavesTheReserve);
  CPPUNIT_TEST(refusesALastAssetIdThatDoesNotAdvance);
  CPPUNIT_TEST(mapsStatuses);
  CPPUNIT_TEST(mapsTransportFailures);
  CPPUNIT_TEST(aFailureOnALaterPageFailsTheWhole);
  CPPUNIT_TEST_SUITE_END();

 public:
  void followsLastAssetIdAndSumsByName() {
    ScriptedHttp http;
    http.ok(page(asset("1", "10", 5) + "," + asset("2", "11") + "," + asset("3", "99"),
                 description("10", "Recoil Case") + "," +
                     description("11", "AK-47 | Redline (Field-Tested)"),
                 "3"));
    http.ok(page(asset("4", "10", 2), description("10", "Recoil Case")));
    const auto inventory = InventoryFetcher(http, options()).fetch("76561197960287930");
    CPPUNIT_ASSERT_EQUAL(2, inventory.pages);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{4}, inventory.assets);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{7}, inventory.unitsOf("Recoil Case"));
    CPPUNIT_ASSERT_EQUAL(std::int64_t{1}, inventory.unitsOf("AK-47 | Redline (Field-Tested)"));
    CPPUNIT_ASSERT_EQUAL(std::int64_t{1}, inventory.unnamed_units);
    CPPUNIT_ASSERT_EQUAL(std::size_t{2}, http.requests.size());
    CPPUNIT_ASSERT_EQUAL(
        std::string("http://inventory.test/inventory/76561197960287930/730/2?l=english&count=1000"),
        http.requests[0].url);
    CPPUNIT_ASSERT_EQUAL(std::string("http://inventory.test/inventory/76561197960287930/730/2"
                                     "?l=english&count=1000&start_assetid=3"),
                         http.requests[1].url);
  }

  void sendsTheCapAndTimeoutOnEveryPage() {
    ScriptedHttp http;
    http.ok(page(asset("1", "10"), description("10", "Recoil Case"), "1"));
    http.ok(page("", ""));
    InventoryFetcher(http, options()).fetch("76561197960287930");
    for (const auto& request : http.requests) {
      CPPUNIT_ASSERT_EQUAL(std::string("GET"), request.method);
      CPPUNIT_ASSERT_EQUAL(std::size_t{4096}, request.max_body_bytes);
      CPPUNIT_ASSERT_EQUAL(std::int64_t{1500}, static_cast<std::int64_t>(request.timeout.count()));
    }
  }

  void countsARepeatedAssetOnce() {
    ScriptedHttp http;
    // The inventory changed between two pages: asset 2 comes again on the second.
    http.ok(page(asset("1", "10") + "," + asset("2", "10", 3) + "," + asset("2", "10", 3),
                 description("10", "Recoil Case"), "2"));
    http.ok(page(asset("2", "10", 3) + "," + asset("5", "10"), description("10", "Recoil Case")));
    const auto inventory = InventoryFetcher(http, options()).fetch("76561197960287930");
    CPPUNIT_ASSERT_EQUAL(std::int64_t{3}, inventory.assets);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{5}, inventory.unitsOf("Recoil Case"));
  }

  void refusesMoreThanThePageCap() {
    ScriptedHttp http;
    for (int i = 1; i <= 3; ++i) {
      http.ok(page(asset(std::to_string(i), "10"), description("10", "Recoil Case"),
                   std::to_string(i)));
    }
    CPPUNIT_ASSERT(failureOf(http) == InventoryError::Kind::kTooLarge);
    CPPUNIT_ASSERT_EQUAL(std::size_t{3}, http.requests.size());  // never asks for a 4th
  }

  void acceptsExactlyThePageCap() {
    ScriptedHttp http;
    http.ok(page(asset("1", "10"), description("10", "Recoil Case"), "1"));
    http.ok(page(asset("2", "10"), description("10", "Recoil Case"), "2"));
    http.ok(page(asset("3", "10"), description("10", "Recoil Case")));
    CPPUNIT_ASSERT_EQUAL(3, InventoryFetcher(http, options()).fetch("76561197960287930").pages);
  }

  void everyPageTakesATokenOfTheSharedBudget() {
    // Two requests a minute left: the third page is not requested at all.
    auto now = std::chrono::steady_clock::now();
    net::RequestBudget budget(2, [&] { return now; });
    ScriptedHttp http;
    http.ok(page(asset("1", "10"), description("10", "Recoil Case"), "1"));
    http.ok(page(asset("2", "10"), description("10", "Recoil Case"), "2"));
    try {
      InventoryFetcher(http, options(), &budget).fetch("76561197960287930");
      CPPUNIT_FAIL("a third page was fetched beyond the budget");
    } catch (const net::RequestBudgetExhausted& e) {
      CPPUNIT_ASSERT_EQUAL(std::int64_t{30}, e.retryAfterSeconds());  // one token per 30 s
    }
    CPPUNIT_ASSERT_EQUAL(std::size_t{2}, http.requests.size());
    now += std::chrono::seconds(60);
    http.ok(page(asset("3", "10"), description("10", "Recoil Case")));
    CPPUNIT_ASSERT_EQUAL(
        1, InventoryFetcher(http, options(), &budget).fetch("76561197960287930").pages);
  }

  void aFailingUsersFetchLeavesTheReserve() {
    // 4 a minute, 1 kept for users without recent failures: 3 are taken already.
    auto now = std::chrono::steady_clock::now();
    net::RequestBudget budget(4, [&] { return now; });
    for (int i = 0; i < 3; ++i) {
      CPPUNIT_ASSERT(budget.tryAcquire(net::RequestBudget::Priority::kUser).granted);
    }
    ScriptedHttp http;
    http.ok(page(asset("1", "10"), description("10", "Recoil Case")));
    const InventoryFetcher fetcher(http, options(), &budget);
    CPPUNIT_ASSERT_THROW(
        fetcher.fetch("76561197960287930", net::RequestBudget::Priority::kUserAfterFailure),
        net::RequestBudgetExhausted);
    CPPUNIT_ASSERT_EQUAL(std::size_t{0}, http.requests.size());         // nothing was sent
    CPPUNIT_ASSERT_EQUAL(1, fetcher.fetch("76561197960287930").pages);  // kUser takes it
  }

  void refusesALastAssetIdThatDoesNotAdvance() {
    ScriptedHttp http;
    http.ok(page(asset("1", "10"), description("10", "Recoil Case"), "1"));
    http.ok(page(asset("1", "10"), description("10", "Recoil Case"), "1"));
    CPPUNIT_ASSERT(failureOf(http) == InventoryError::Kind::kUpstream);
    CPPUNIT_ASSERT_EQUAL(std::size_t{2}, http.requests.size());
  }

  void mapsStatuses() {
    const std::pair<int, InventoryError::Kind> cases[] = {
        {403, InventoryError::Kind::kPrivate},  {401, InventoryError::Kind::kUnavailable},
        {429, InventoryError::Kind::kUpstream}, {500, InventoryError::Kind::kUpstream},
        {502, InventoryError::Kind::kUpstream}, {400, InventoryError::Kind::kUpstream},
        {404, InventoryError::Kind::kUpstream}, {302, InventoryError::Kind::kUpstream},
    };
    for (const auto& [status, kind] : cases) {
      ScriptedHttp http;
      http.status(status);
      CPPUNIT_ASSERT_MESSAGE(std::to_string(status), failureOf(http) == kind);
    }
    ScriptedHttp garbage;
    garbage.ok("null");  // a 200 with the failure body
    CPPUNIT_ASSERT(failureOf(garbage) == InventoryError::Kind::kUpstream);
  }

  void mapsTransportFailures() {
    using Error = sdk::HttpResponse::Error;
    const std::pair<Error, InventoryError::Kind> cases[] = {
        {Error::kTooLarge, InventoryError::Kind::kTooLarge},
        {Error::kTimeout, InventoryError::Kind::kUpstream},
        {Error::kConnect, InventoryError::Kind::kUpstream},
        {Error::kProtocol, InventoryError::Kind::kUpstream},
    };
    for (const auto& [error, kind] : cases) {
      ScriptedHttp http;
      http.error(error);
      CPPUNIT_ASSERT(failureOf(http) == kind);
    }
  }

  void aFailureOnALaterPageFailsTheWhole() {
    ScriptedHttp http;
    http.ok(page(asset("1", "10"), description("10", "Recoil Case"), "1"));
    http.status(500, R"j({"error":"EYldRefreshAppIfNecessary failed with EResult 55 (20)"})j");
    CPPUNIT_ASSERT(failureOf(http) == InventoryError::Kind::kUpstream);
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(InventoryFetcherTest);
