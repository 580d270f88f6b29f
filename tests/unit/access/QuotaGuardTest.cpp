#include "access/ApiKey.hpp"
#include "access/QuotaGuard.hpp"
#include "http/HttpError.hpp"
#include "http/Router.hpp"
#include "store/Database.hpp"

#include <cppunit/extensions/HelperMacros.h>

#include <memory>

using namespace skinpulse;
using access::KeyDirectory;
using access::QuotaGuard;
using access::ReadBudget;

namespace {

http::Request read(const std::string& path, const std::string& peer = "192.0.2.10",
                   http::Headers headers = {}, const std::string& method = "GET") {
  http::Request request;
  request.method = method;
  request.path = path;
  request.target = path;
  request.client_address = peer;
  request.headers = std::move(headers);
  return request;
}

// The status and code of the refusal, or 0 when admitted.
struct Outcome {
  int status = 0;
  std::string code;
  std::string retry_after;
};

}  // namespace

class QuotaGuardTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(QuotaGuardTest);
  CPPUNIT_TEST(testClientOverBudgetIs429WithRetryAfter);
  CPPUNIT_TEST(testOnlyApiReadsAreCounted);
  CPPUNIT_TEST(testIpv6SlashSixtyFourIsOneClient);
  CPPUNIT_TEST(testForwardedClientBehindTrustedProxy);
  CPPUNIT_TEST(testKeyHasItsOwnBudgetWhereverItComesFrom);
  CPPUNIT_TEST(testUnknownRevokedAndMalformedKeysAre401);
  CPPUNIT_TEST(testKeyBeforeFirstLoadIs503);
  CPPUNIT_TEST(testUnlimitedByDefault);
  CPPUNIT_TEST_SUITE_END();

 public:
  void setUp() override {
    db_ = store::openDatabase("sqlite://:memory:", std::string(SKINPULSE_SHARE_DIR) + "/sql");
    user_ = db_->users().createUser("a@example.com", "A", "", 1000).id;
    directory_ = std::make_unique<KeyDirectory>(db_->apiKeys());
  }

  void testClientOverBudgetIs429WithRetryAfter() {
    Guard guard(*this, 3, 0);
    for (int i = 0; i < 3; ++i) CPPUNIT_ASSERT_EQUAL(0, guard.run(read("/api/v1/items")).status);
    const auto refused = guard.run(read("/api/v1/items/7"));
    CPPUNIT_ASSERT_EQUAL(429, refused.status);
    CPPUNIT_ASSERT_EQUAL(std::string("rate_limited"), refused.code);
    CPPUNIT_ASSERT_EQUAL(std::string("60"), refused.retry_after);
    CPPUNIT_ASSERT_EQUAL(0, guard.run(read("/api/v1/items", "192.0.2.11")).status);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{1}, guard.guard.anonymousLimited());
  }

  void testOnlyApiReadsAreCounted() {
    Guard guard(*this, 1, 0);
    CPPUNIT_ASSERT_EQUAL(0, guard.run(read("/api/v1/items")).status);
    // Not reads of the public API: never counted, never refused here.
    for (const auto& path : {"/api/v1/auth/csrf", "/api/v1/auth/login/idp-a", "/api/v1/ws",
                             "/healthz", "/readyz", "/", "/portfolio", "/js/app.js"}) {
      CPPUNIT_ASSERT_EQUAL_MESSAGE(path, 0, guard.run(read(path)).status);
    }
    CPPUNIT_ASSERT_EQUAL(0, guard.run(read("/api/v1/alerts", "192.0.2.10", {}, "POST")).status);
    CPPUNIT_ASSERT_EQUAL(0, guard.run(read("/api/v1/keys/x", "192.0.2.10", {}, "DELETE")).status);
    // "/api/v1/authx" is not under /api/v1/auth; HEAD counts as GET.
    CPPUNIT_ASSERT_EQUAL(429, guard.run(read("/api/v1/authx")).status);
    CPPUNIT_ASSERT_EQUAL(429, guard.run(read("/api/v1/items", "192.0.2.10", {}, "HEAD")).status);
  }

  void testIpv6SlashSixtyFourIsOneClient() {
    Guard guard(*this, 2, 0);
    CPPUNIT_ASSERT_EQUAL(0, guard.run(read("/api/v1/items", "2001:db8:1:2::1")).status);
    CPPUNIT_ASSERT_EQUAL(0, guard.run(read("/api/v1/items", "2001:db8:1:2::ffff")).status);
    CPPUNIT_ASSERT_EQUAL(429, guard.run(read("/api/v1/items", "2001:db8:1:2:abcd::9")).status);
    CPPUNIT_ASSERT_EQUAL(0, guard.run(read("/api/v1/items", "2001:db8:1:3::1")).status);
  }

  void testForwardedClientBehindTrustedProxy() {
    http::TrustedProxies proxies({"127.0.0.1/32"});
    Guard guard(*this, 1, 0, &proxies);
    const auto via = [](const char* client) {
      return read("/api/v1/items", "127.0.0.1", {{"X-Forwarded-For", client}});
    };
    CPPUNIT_ASSERT_EQUAL(0, guard.run(via("198.51.100.1")).status);
    CPPUNIT_ASSERT_EQUAL(0, guard.run(via("198.51.100.2")).status);  // not the proxy's budget
    CPPUNIT_ASSERT_EQUAL(429, guard.run(via("198.51.100.1")).status);
  }

  void testKeyHasItsOwnBudgetWhereverItComesFrom() {
    const std::string key = createKey();
    directory_->reload();
    Guard guard(*this, 1, 3);
    const http::Headers bearer{{"Authorization", "Bearer " + key}};
    CPPUNIT_ASSERT_EQUAL(0, guard.run(read("/api/v1/items", "192.0.2.10")).status);
    CPPUNIT_ASSERT_EQUAL(429, guard.run(read("/api/v1/items", "192.0.2.10")).status);
    // The key's budget is its own (3), from any address, and the client's is not used.
    CPPUNIT_ASSERT_EQUAL(0, guard.run(read("/api/v1/items", "192.0.2.10", bearer)).status);
    CPPUNIT_ASSERT_EQUAL(0, guard.run(read("/api/v1/items", "203.0.113.5", bearer)).status);
    CPPUNIT_ASSERT_EQUAL(0, guard.run(read("/api/v1/items", "203.0.113.6", bearer)).status);
    const auto refused = guard.run(read("/api/v1/items", "203.0.113.7", bearer));
    CPPUNIT_ASSERT_EQUAL(429, refused.status);
    CPPUNIT_ASSERT_EQUAL(std::string("rate_limited"), refused.code);
    // Counted for the key: 3 admitted, 1 refused; flushed in one batch.
    directory_->flush();
    const auto listed = db_->apiKeys().keysOf(user_);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{3}, listed.at(0).requests);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{1}, listed.at(0).rate_limited);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{5000}, listed.at(0).last_used_at.value_or(0));
  }

  void testUnknownRevokedAndMalformedKeysAre401() {
    const std::string key = createKey();
    directory_->reload();
    Guard guard(*this, 0, 0);
    const http::Headers bearer{{"Authorization", "Bearer " + key}};
    CPPUNIT_ASSERT_EQUAL(0, guard.run(read("/api/v1/items", "192.0.2.10", bearer)).status);
    const http::Headers stranger{{"Authorization", "Bearer " + access::generateApiKey().key}};
    CPPUNIT_ASSERT_EQUAL(std::string("invalid_api_key"),
                         guard.run(read("/api/v1/items", "192.0.2.10", stranger)).code);
    const http::Headers basic{{"Authorization", "Basic dXNlcjpwYXNz"}};
    CPPUNIT_ASSERT_EQUAL(401, guard.run(read("/api/v1/items", "192.0.2.10", basic)).status);
    // Revoked in the database by another daemon: refused after this one's next reload.
    CPPUNIT_ASSERT(db_->apiKeys().revokeKey(user_, db_->apiKeys().activeKeys().at(0).id));
    CPPUNIT_ASSERT_EQUAL(0, guard.run(read("/api/v1/items", "192.0.2.10", bearer)).status);
    directory_->reload();
    const auto refused = guard.run(read("/api/v1/items", "192.0.2.10", bearer));
    CPPUNIT_ASSERT_EQUAL(401, refused.status);
    CPPUNIT_ASSERT_EQUAL(std::string("invalid_api_key"), refused.code);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{3}, guard.guard.invalidKeys());
  }

  void testKeyBeforeFirstLoadIs503() {
    const std::string key = createKey();
    Guard guard(*this, 0, 0);
    const http::Headers bearer{{"Authorization", "Bearer " + key}};
    CPPUNIT_ASSERT_EQUAL(503, guard.run(read("/api/v1/items", "192.0.2.10", bearer)).status);
    directory_->reload();
    CPPUNIT_ASSERT_EQUAL(0, guard.run(read("/api/v1/items", "192.0.2.10", bearer)).status);
  }

  void testUnlimitedByDefault() {
    Guard guard(*this, 0, 0);
    for (int i = 0; i < 5000; ++i) CPPUNIT_ASSERT_EQUAL(0, guard.run(read("/api/v1/items")).status);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{5000}, guard.guard.anonymousRequests());
  }

 private:
  struct Guard {
    Guard(QuotaGuardTest& test, std::int64_t per_client, std::int64_t per_key,
          const http::TrustedProxies* proxies = nullptr)
        : clients(per_client, [&test] { return test.now_ms_; }),
          keys(per_key, [&test] { return test.now_ms_; }),
          guard(clients, keys, *test.directory_, proxies, [] { return std::int64_t{5000}; }) {}

    Outcome run(http::Request request) {
      try {
        guard.admit(request, http::RouteOptions{});
        return {};
      } catch (const http::HttpError& e) {
        std::string retry;
        for (const auto& [name, value] : e.headers()) {
          if (name == "Retry-After") retry = value;
        }
        return {e.status(), e.code(), retry};
      }
    }

    ReadBudget clients;
    ReadBudget keys;
    QuotaGuard guard;
  };

  std::string createKey() {
    const auto fresh = access::generateApiKey();
    CPPUNIT_ASSERT(
        db_->apiKeys().createKey({"00000000-0000-4000-8000-00000000000" + std::to_string(++made_),
                                  user_,
                                  "k",
                                  fresh.prefix,
                                  fresh.hash,
                                  1000,
                                  {},
                                  0,
                                  0},
                                 10));
    return fresh.key;
  }

  std::unique_ptr<store::Database> db_;
  std::string user_;
  std::unique_ptr<KeyDirectory> directory_;
  std::int64_t now_ms_ = 1'000'000;
  int made_ = 0;
};

CPPUNIT_TEST_SUITE_REGISTRATION(QuotaGuardTest);
