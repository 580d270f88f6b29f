// The import lock on Redis: needs SKINPULSE_TEST_REDIS_URL (label needs-redis), otherwise
// every test but the outage one is skipped.

#include "ImportLockContract.hpp"
#include "mocks/UnreachableRedis.hpp"
#include "state/RedisSharedStore.hpp"

#include <cstdlib>

using namespace skinpulse;
using skinpulse::test::ImportLockContract;

class ImportLockRedisTest : public ImportLockContract {
  CPPUNIT_TEST_SUB_SUITE(ImportLockRedisTest, ImportLockContract);
  CPPUNIT_TEST_SUITE_END();

 protected:
  std::unique_ptr<state::SharedStore> makeStore() override {
    const char* url = std::getenv("SKINPULSE_TEST_REDIS_URL");
    if (url == nullptr || *url == '\0') return nullptr;
    return std::make_unique<state::RedisSharedStore>(redis::parseRedisUrl(url));
  }

  std::unique_ptr<state::SharedStore> makeUnreachableStore() override {
    return std::make_unique<state::RedisSharedStore>(test::unreachableRedisUrl());
  }

  std::string skipReason() const override { return "SKINPULSE_TEST_REDIS_URL not set"; }
};

CPPUNIT_TEST_SUITE_REGISTRATION(ImportLockRedisTest);
