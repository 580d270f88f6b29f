#include "net/BudgetedHttpClient.hpp"
#include "net/RequestBudget.hpp"

#include <cppunit/extensions/HelperMacros.h>

#include <vector>

using namespace skinpulse;
using net::RequestBudget;
using Priority = net::RequestBudget::Priority;
using namespace std::chrono_literals;

namespace {

class CountingHttp final : public sdk::HttpClient {
 public:
  std::vector<sdk::HttpRequest> sent;
  int streamed = 0;
  sdk::HttpResponse send(const sdk::HttpRequest& request) override {
    sent.push_back(request);
    sdk::HttpResponse response;
    response.status = 200;
    return response;
  }
  sdk::HttpResponse stream(const sdk::HttpRequest& request, sdk::BodySink&) override {
    ++streamed;
    return send(request);
  }
};

class NoSink final : public sdk::BodySink {
 public:
  bool onHead(int, const sdk::Fields&) override { return true; }
  bool onBody(const char*, std::size_t) override { return true; }
};

sdk::HttpRequest get(const std::string& url, std::chrono::milliseconds timeout = 1000ms) {
  sdk::HttpRequest request;
  request.url = url;
  request.timeout = timeout;
  return request;
}

}  // namespace

class RequestBudgetTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(RequestBudgetTest);
  CPPUNIT_TEST(testAFullMinuteThenOneTokenAtATime);
  CPPUNIT_TEST(testBackgroundWorkLeavesAReserveForUsers);
  CPPUNIT_TEST(testUsersWithFailuresLeaveTheReserveToo);
  CPPUNIT_TEST(testAcquireWaitsForTheNextTokenUntilTheDeadline);
  CPPUNIT_TEST(testOnlyTheBudgetedOriginIsCounted);
  CPPUNIT_TEST(testAClientOutOfTokensSendsNothing);
  CPPUNIT_TEST(testStreamedRequestsTakeTheSameBudget);
  CPPUNIT_TEST_SUITE_END();

 public:
  void testAFullMinuteThenOneTokenAtATime() {
    auto now = std::chrono::steady_clock::now();
    RequestBudget budget(20, [&] { return now; });
    for (int i = 0; i < 20; ++i) CPPUNIT_ASSERT(budget.tryAcquire(Priority::kUser).granted);
    const auto refused = budget.tryAcquire(Priority::kUser);
    CPPUNIT_ASSERT(!refused.granted);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{3000}, std::int64_t(refused.retry_after.count()));
    now += 2999ms;
    CPPUNIT_ASSERT(!budget.tryAcquire(Priority::kUser).granted);
    now += 1ms;
    CPPUNIT_ASSERT(budget.tryAcquire(Priority::kUser).granted);
    CPPUNIT_ASSERT(!budget.tryAcquire(Priority::kUser).granted);
    now += 10min;  // refill stops at one minute's worth
    for (int i = 0; i < 20; ++i) CPPUNIT_ASSERT(budget.tryAcquire(Priority::kUser).granted);
    CPPUNIT_ASSERT(!budget.tryAcquire(Priority::kUser).granted);
  }

  void testBackgroundWorkLeavesAReserveForUsers() {
    auto now = std::chrono::steady_clock::now();
    RequestBudget budget(20, [&] { return now; });
    for (int i = 0; i < 15; ++i) CPPUNIT_ASSERT(budget.tryAcquire(Priority::kBackground).granted);
    const auto polling = budget.tryAcquire(Priority::kBackground);
    CPPUNIT_ASSERT(!polling.granted);  // 5 tokens are kept for users
    CPPUNIT_ASSERT_EQUAL(std::int64_t{3000}, std::int64_t(polling.retry_after.count()));
    for (int i = 0; i < 5; ++i) CPPUNIT_ASSERT(budget.tryAcquire(Priority::kUser).granted);
    CPPUNIT_ASSERT(!budget.tryAcquire(Priority::kUser).granted);
  }

  // issue 31: accounts whose imports keep failing cannot take the users' reserve.
  void testUsersWithFailuresLeaveTheReserveToo() {
    auto now = std::chrono::steady_clock::now();
    RequestBudget budget(20, [&] { return now; });
    for (int i = 0; i < 15; ++i) {
      CPPUNIT_ASSERT(budget.tryAcquire(Priority::kUserAfterFailure).granted);
    }
    const auto failing = budget.tryAcquire(Priority::kUserAfterFailure);
    CPPUNIT_ASSERT(!failing.granted);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{3000}, std::int64_t(failing.retry_after.count()));
    CPPUNIT_ASSERT(!budget.tryAcquire(Priority::kBackground).granted);
    for (int i = 0; i < 5; ++i) CPPUNIT_ASSERT(budget.tryAcquire(Priority::kUser).granted);
    CPPUNIT_ASSERT(!budget.tryAcquire(Priority::kUser).granted);
  }

  void testAcquireWaitsForTheNextTokenUntilTheDeadline() {
    RequestBudget budget(600);  // a token every 100 ms, real time
    for (int i = 0; i < 600; ++i) CPPUNIT_ASSERT(budget.tryAcquire(Priority::kUser).granted);
    const auto start = std::chrono::steady_clock::now();
    CPPUNIT_ASSERT(budget.acquire(Priority::kUser, start + 2s));
    const auto waited = std::chrono::steady_clock::now() - start;
    CPPUNIT_ASSERT(waited >= 50ms && waited < 1s);
    CPPUNIT_ASSERT(!budget.acquire(Priority::kUser, std::chrono::steady_clock::now() + 20ms));
  }

  void testOnlyTheBudgetedOriginIsCounted() {
    auto now = std::chrono::steady_clock::now();
    RequestBudget budget(4, [&] { return now; });  // 3 background tokens, 1 kept for users
    CountingHttp inner;
    net::BudgetedHttpClient client(inner, budget, "https://SteamCommunity.com/inventory");
    CPPUNIT_ASSERT_EQUAL(std::string("https://steamcommunity.com:443"),
                         net::BudgetedHttpClient::originOf("https://steamcommunity.com/market/x"));
    for (int i = 0; i < 5; ++i) {
      CPPUNIT_ASSERT_EQUAL(200, client.send(get("https://api.skinport.com/v1/items")).status);
      CPPUNIT_ASSERT_EQUAL(200, client.send(get("http://steamcommunity.com/market/x")).status);
    }
    CPPUNIT_ASSERT_EQUAL(200, client.send(get("https://steamcommunity.com:443/market/a")).status);
    CPPUNIT_ASSERT_EQUAL(std::size_t{11}, inner.sent.size());
    CPPUNIT_ASSERT(budget.tryAcquire(Priority::kUser).granted);  // the users' reserve is intact
  }

  void testStreamedRequestsTakeTheSameBudget() {
    RequestBudget budget(4);
    CountingHttp inner;
    NoSink sink;
    net::BudgetedHttpClient client(inner, budget, "https://steamcommunity.com/inventory");
    CPPUNIT_ASSERT_EQUAL(200, client.stream(get("https://lis-skins.com/x.json"), sink).status);
    for (int i = 0; i < 3; ++i) {
      CPPUNIT_ASSERT_EQUAL(200,
                           client.stream(get("https://steamcommunity.com/market/a"), sink).status);
    }
    const auto refused = client.stream(get("https://steamcommunity.com/market/b", 200ms), sink);
    CPPUNIT_ASSERT(refused.error == sdk::HttpResponse::Error::kTimeout);
    CPPUNIT_ASSERT_EQUAL(4, inner.streamed);  // through the inner client's stream(), not send()
  }

  void testAClientOutOfTokensSendsNothing() {
    RequestBudget budget(4);
    CountingHttp inner;
    net::BudgetedHttpClient client(inner, budget, "https://steamcommunity.com/inventory");
    for (int i = 0; i < 3; ++i) {  // the background's share; one token stays for users
      CPPUNIT_ASSERT_EQUAL(200, client.send(get("https://steamcommunity.com/market/a")).status);
    }
    const auto start = std::chrono::steady_clock::now();
    const auto refused = client.send(get("https://steamcommunity.com/market/b", 200ms));
    CPPUNIT_ASSERT(refused.error == sdk::HttpResponse::Error::kTimeout);
    CPPUNIT_ASSERT(refused.error_message.find("requests_per_minute") != std::string::npos);
    CPPUNIT_ASSERT(std::chrono::steady_clock::now() - start < 1s);  // half the timeout, not more
    CPPUNIT_ASSERT_EQUAL(std::size_t{3}, inner.sent.size());
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(RequestBudgetTest);
