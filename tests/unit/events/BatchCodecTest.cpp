#include "events/BatchCodec.hpp"
#include "redis/RedisUrl.hpp"

#include <cppunit/extensions/HelperMacros.h>

#include <stdexcept>

using namespace skinpulse::events;

class BatchCodecTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(BatchCodecTest);
  CPPUNIT_TEST(roundTrips);
  CPPUNIT_TEST(newlinesInJsonBecomeSpaces);
  CPPUNIT_TEST(refusesMalformedMessages);
  CPPUNIT_TEST(parsesRedisUrls);
  CPPUNIT_TEST_SUITE_END();

 public:
  void roundTrips() {
    const UpdateBatch batch("prices",
                            {{7, R"({"item_id":7,"source":"a b"})"},
                             {3, R"({"item_id":3})"},
                             {7, R"({"item_id":7,"source":"c"})"}},
                            1795000000);
    const auto decoded = decodeBatch(encodeBatch("abc123", batch));
    CPPUNIT_ASSERT(decoded.has_value());
    CPPUNIT_ASSERT_EQUAL(std::string("abc123"), decoded->origin);
    CPPUNIT_ASSERT_EQUAL(std::string("prices"), decoded->batch->kind());
    CPPUNIT_ASSERT_EQUAL(std::int64_t(1795000000), decoded->batch->cycle());
    CPPUNIT_ASSERT_EQUAL(std::size_t(3), decoded->batch->entries().size());
    CPPUNIT_ASSERT_EQUAL(std::size_t(2), decoded->batch->distinctItems());
    for (std::size_t i = 0; i < 3; ++i) {
      CPPUNIT_ASSERT_EQUAL(batch.entries()[i].item_id, decoded->batch->entries()[i].item_id);
      CPPUNIT_ASSERT_EQUAL(batch.entries()[i].json, decoded->batch->entries()[i].json);
    }
    const auto [first, last] = decoded->batch->rangeOf(7);
    CPPUNIT_ASSERT_EQUAL(std::size_t(1), first);
    CPPUNIT_ASSERT_EQUAL(std::size_t(3), last);
  }

  void newlinesInJsonBecomeSpaces() {
    const UpdateBatch batch("volatility", {{1, "{\n  \"item_id\": 1\n}"}});
    const auto decoded = decodeBatch(encodeBatch("o", batch));
    CPPUNIT_ASSERT(decoded.has_value());
    CPPUNIT_ASSERT_EQUAL(std::string("{   \"item_id\": 1 }"), decoded->batch->entries()[0].json);
  }

  void refusesMalformedMessages() {
    for (const char* message :
         {"", "hello", "skinpulse-live 2\no\nprices\n", "skinpulse-live 1\n\nprices\n",
          "skinpulse-live 1\no\nprices\n1 {}", "skinpulse-live 1\no\nprices\nx {}\n",
          "skinpulse-live 1\no\nprices\n-1 {}\n", "skinpulse-live 1\no\nprices\n1\n"}) {
      CPPUNIT_ASSERT_MESSAGE(message, !decodeBatch(message).has_value());
    }
    CPPUNIT_ASSERT(decodeBatch("skinpulse-live 1\no\nprices 0\n").has_value());  // empty batch
  }

  void parsesRedisUrls() {
    auto address = skinpulse::redis::parseRedisUrl("redis://127.0.0.1:16395/0");
    CPPUNIT_ASSERT_EQUAL(std::string("127.0.0.1"), address.host);
    CPPUNIT_ASSERT_EQUAL(16395, address.port);
    address = skinpulse::redis::parseRedisUrl("redis://cache.internal");
    CPPUNIT_ASSERT_EQUAL(6379, address.port);
    CPPUNIT_ASSERT_THROW(skinpulse::redis::parseRedisUrl("http://x:1"), std::invalid_argument);
    CPPUNIT_ASSERT_THROW(skinpulse::redis::parseRedisUrl("redis://:1"), std::invalid_argument);
    CPPUNIT_ASSERT_THROW(skinpulse::redis::parseRedisUrl("redis://h:99999"), std::invalid_argument);
    address = skinpulse::redis::parseRedisUrl("redis://app:s3cr:et@cache:6380/2");
    CPPUNIT_ASSERT_EQUAL(std::string("cache"), address.host);
    CPPUNIT_ASSERT_EQUAL(6380, address.port);
    CPPUNIT_ASSERT_EQUAL(std::string("app"), address.user);
    CPPUNIT_ASSERT_EQUAL(std::string("s3cr:et"), address.password);
    address = skinpulse::redis::parseRedisUrl("redis://:only@cache");
    CPPUNIT_ASSERT(address.user.empty());
    CPPUNIT_ASSERT_EQUAL(std::string("only"), address.password);
    address = skinpulse::redis::parseRedisUrl("redis://bare@cache");
    CPPUNIT_ASSERT(address.user.empty());
    CPPUNIT_ASSERT_EQUAL(std::string("bare"), address.password);
    // The bus shares the store's parser: credentials are percent-decoded.
    address = skinpulse::redis::parseRedisUrl("redis://app:p%40ss%3A1@cache");
    CPPUNIT_ASSERT_EQUAL(std::string("p@ss:1"), address.password);
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(BatchCodecTest);
