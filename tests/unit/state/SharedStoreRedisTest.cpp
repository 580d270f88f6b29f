// The shared-store contract on Redis; needs SKINPULSE_TEST_REDIS_URL (label needs-redis),
// otherwise every test is skipped. Keys carry a random prefix per test, so runs sharing
// one Redis do not meet. Also the parsing of REDIS_URL.

#include "SharedStoreContract.hpp"
#include "mocks/UnreachableRedis.hpp"
#include "state/RedisSharedStore.hpp"

#include <Poco/Net/ServerSocket.h>
#include <Poco/Redis/Array.h>
#include <Poco/Redis/Client.h>

#include <cstdlib>
#include <sstream>
#include <unistd.h>

using namespace skinpulse;
using skinpulse::test::SharedStoreContract;

class SharedStoreRedisTest : public SharedStoreContract {
  CPPUNIT_TEST_SUB_SUITE(SharedStoreRedisTest, SharedStoreContract);
  CPPUNIT_TEST(testParseRedisUrl);
  CPPUNIT_TEST(testHungServerTimesOut);
  CPPUNIT_TEST(testReconnectsAfterServerDroppedPooledConnections);
  CPPUNIT_TEST_SUITE_END();

 public:
  void testParseRedisUrl() {
    const auto full = redis::parseRedisUrl("redis://user:p%40ss@cache.internal:6380/3");
    CPPUNIT_ASSERT_EQUAL(std::string("cache.internal"), full.host);
    CPPUNIT_ASSERT_EQUAL(6380, full.port);
    CPPUNIT_ASSERT_EQUAL(3, full.database);
    CPPUNIT_ASSERT_EQUAL(std::string("user"), full.user);
    CPPUNIT_ASSERT_EQUAL(std::string("p@ss"), full.password);
    const auto plain = redis::parseRedisUrl("redis://127.0.0.1");
    CPPUNIT_ASSERT_EQUAL(6379, plain.port);
    CPPUNIT_ASSERT_EQUAL(0, plain.database);
    CPPUNIT_ASSERT(plain.password.empty());
    CPPUNIT_ASSERT_EQUAL(std::string("secret"),
                         redis::parseRedisUrl("redis://:secret@h/0").password);
    CPPUNIT_ASSERT_THROW(redis::parseRedisUrl("http://h:6379/0"), std::invalid_argument);
    CPPUNIT_ASSERT_THROW(redis::parseRedisUrl("redis://h:6379/x"), std::invalid_argument);
    CPPUNIT_ASSERT_THROW(redis::parseRedisUrl("redis:///0"), std::invalid_argument);
    try {
      redis::parseRedisUrl("redis://:hunter2@h:6379/nope");
      CPPUNIT_FAIL("a bad database must be refused");
    } catch (const std::invalid_argument& e) {
      CPPUNIT_ASSERT(std::string(e.what()).find("hunter2") == std::string::npos);
    }
  }

  void testReconnectsAfterServerDroppedPooledConnections() {
    if (skipped()) return;
    store_->set(key("k"), "v", std::chrono::seconds(60));  // leaves a pooled connection
    // Kill only this store's connections (by their unique name): other suites may share
    // this Redis.
    const auto url = redis::parseRedisUrl(std::getenv("SKINPULSE_TEST_REDIS_URL"));
    Poco::Redis::Client admin(url.host, url.port);
    Poco::Redis::Array list;
    list << "CLIENT"
         << "LIST"
         << "TYPE"
         << "normal";
    std::istringstream lines(admin.execute<Poco::Redis::BulkString>(list).value());
    int killed = 0;
    for (std::string line; std::getline(lines, line);) {
      if (line.find(" name=" + client_name_ + " ") == std::string::npos) continue;
      const std::string id = line.substr(3, line.find(' ') - 3);  // "id=N ..."
      Poco::Redis::Array kill;
      kill << "CLIENT"
           << "KILL"
           << "ID" << id;
      killed += static_cast<int>(admin.execute<Poco::Int64>(kill));
    }
    CPPUNIT_ASSERT(killed >= 1);
    // As after a Redis restart: the stale pooled connection is replaced, not reported.
    CPPUNIT_ASSERT_EQUAL(std::string("v"), store_->get(key("k")).value());
  }

  void testHungServerTimesOut() {
    // Accepts connections (the kernel backlog) but never answers: a reply timeout.
    Poco::Net::ServerSocket silent(Poco::Net::SocketAddress("127.0.0.1", 0));
    redis::RedisUrl url;
    url.host = "127.0.0.1";
    url.port = silent.address().port();
    state::RedisOptions options;
    options.reply_timeout_ms = 300;
    state::RedisSharedStore hung(url, options);
    const auto started = std::chrono::steady_clock::now();
    CPPUNIT_ASSERT_THROW(hung.get("k"), state::StoreUnavailable);
    CPPUNIT_ASSERT(std::chrono::steady_clock::now() - started < std::chrono::seconds(3));
  }

 protected:
  std::unique_ptr<state::SharedStore> makeStore() override {
    const char* url = std::getenv("SKINPULSE_TEST_REDIS_URL");
    if (url == nullptr || *url == '\0') return nullptr;
    state::RedisOptions options;
    client_name_ = "skinpulse-test-" + std::to_string(::getpid()) + "-" + prefix_.substr(5, 8);
    options.client_name = client_name_;
    return std::make_unique<state::RedisSharedStore>(redis::parseRedisUrl(url), options);
  }
  std::unique_ptr<state::SharedStore> makeUnreachableStore() override {
    return std::make_unique<state::RedisSharedStore>(test::unreachableRedisUrl());
  }
  std::string skipReason() const override { return "SKINPULSE_TEST_REDIS_URL not set"; }

 private:
  std::string client_name_;
};

CPPUNIT_TEST_SUITE_REGISTRATION(SharedStoreRedisTest);
