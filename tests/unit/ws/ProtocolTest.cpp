#include "ws/Protocol.hpp"

#include <cppunit/extensions/HelperMacros.h>

using namespace skinpulse::ws;
using Type = ClientMessage::Type;

class ProtocolTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(ProtocolTest);
  CPPUNIT_TEST(parsesTheDocumentedMessages);
  CPPUNIT_TEST(refusesHostileJson);
  CPPUNIT_TEST(acknowledgementsCarryTheWholeSet);
  CPPUNIT_TEST(moreThanAThousandIdsIsRefused);
  CPPUNIT_TEST(starAndUnsubscribe);
  CPPUNIT_TEST_SUITE_END();

  static Subscription with(std::initializer_list<const char*> messages) {
    Subscription subscription;
    for (const auto* text : messages) {
      const auto message = parseClientMessage(text);
      if (message.type == Type::kSubscribe) {
        CPPUNIT_ASSERT(subscription.subscribe(message));
      } else {
        subscription.unsubscribe(message);
      }
    }
    return subscription;
  }

 public:
  void parsesTheDocumentedMessages() {
    auto m = parseClientMessage(R"({"type":"subscribe","items":[3,1,2,3]})");
    CPPUNIT_ASSERT(m.type == Type::kSubscribe);
    CPPUNIT_ASSERT(!m.all);
    CPPUNIT_ASSERT((m.items == std::vector<std::int64_t>{1, 2, 3}));
    m = parseClientMessage(R"( {"items":"*","type":"unsubscribe"} )");
    CPPUNIT_ASSERT(m.type == Type::kUnsubscribe);
    CPPUNIT_ASSERT(m.all);
    CPPUNIT_ASSERT(parseClientMessage(R"({"type":"ping"})").type == Type::kPing);
    CPPUNIT_ASSERT(parseClientMessage(R"({"type":"subscribe","items":[]})").type ==
                   Type::kSubscribe);
    CPPUNIT_ASSERT(
        parseClientMessage(R"({"type":"subscribe","items":[9223372036854775807]})").items.at(0) ==
        INT64_MAX);
  }

  void refusesHostileJson() {
    const char* hostile[] = {
        "",
        "not json",
        "{",
        "[]",
        "null",
        "\"subscribe\"",
        R"({"type":"dance"})",
        R"({"type":1})",
        R"({"type":null})",
        R"({"type":"subscribe"})",
        R"({"type":"subscribe","items":"all"})",
        R"({"type":"subscribe","items":["1"]})",
        R"({"type":"subscribe","items":[0]})",
        R"({"type":"subscribe","items":[-4]})",
        R"({"type":"subscribe","items":[1.5]})",
        R"({"type":"subscribe","items":[true]})",
        R"({"type":"subscribe","items":[null]})",
        R"({"type":"subscribe","items":[[1]]})",
        R"({"type":"subscribe","items":{"1":1}})",
        R"({"type":"subscribe","items":[1e400]})",
        R"({"type":"subscribe","items":[18446744073709551615]})",
        R"({"type":"subscribe","items":[99999999999999999999999999]})",
        R"({"type":"ping"} trailing)",
        "{\"type\":\"ping\"\x01}",
    };
    for (const char* text : hostile) {
      CPPUNIT_ASSERT_MESSAGE(text, parseClientMessage(text).type == Type::kInvalid);
    }
    // Deep nesting is refused quickly, without exhausting the stack.
    const std::string deep =
        "{\"type\":\"ping\",\"x\":" + std::string(2000, '[') + std::string(2000, ']') + "}";
    CPPUNIT_ASSERT(parseClientMessage(deep).type == Type::kInvalid);
  }

  void acknowledgementsCarryTheWholeSet() {
    auto subscription =
        with({R"({"type":"subscribe","items":[5,1]})", R"({"type":"subscribe","items":[3,5]})"});
    CPPUNIT_ASSERT_EQUAL(std::string(R"({"type":"subscribed","items":[1,3,5]})"),
                         subscription.acknowledgement());
    subscription =
        with({R"({"type":"subscribe","items":[5,1]})", R"({"type":"unsubscribe","items":[1,7]})"});
    CPPUNIT_ASSERT_EQUAL(std::string(R"({"type":"subscribed","items":[5]})"),
                         subscription.acknowledgement());
    CPPUNIT_ASSERT_EQUAL(std::string(R"({"type":"subscribed","items":[]})"),
                         Subscription().acknowledgement());
  }

  void moreThanAThousandIdsIsRefused() {
    std::string ids;
    for (int i = 1; i <= 1000; ++i) ids += (i > 1 ? "," : "") + std::to_string(i);
    Subscription subscription;
    CPPUNIT_ASSERT(subscription.subscribe(
        parseClientMessage(R"({"type":"subscribe","items":[)" + ids + "]}")));
    CPPUNIT_ASSERT_EQUAL(std::size_t(1000), subscription.ids().size());
    CPPUNIT_ASSERT(
        subscription.subscribe(parseClientMessage(R"({"type":"subscribe","items":[7]})")));
    CPPUNIT_ASSERT(
        !subscription.subscribe(parseClientMessage(R"({"type":"subscribe","items":[1001]})")));
    CPPUNIT_ASSERT_EQUAL(std::size_t(1000), subscription.ids().size());  // unchanged
    Subscription fresh;
    CPPUNIT_ASSERT(
        !fresh.subscribe(parseClientMessage(R"({"type":"subscribe","items":[)" + ids + ",1001]}")));
    CPPUNIT_ASSERT(fresh.empty());
  }

  void starAndUnsubscribe() {
    auto subscription =
        with({R"({"type":"subscribe","items":[1]})", R"({"type":"subscribe","items":"*"})",
              R"({"type":"subscribe","items":[2]})", R"({"type":"unsubscribe","items":[2]})"});
    CPPUNIT_ASSERT(subscription.all());
    CPPUNIT_ASSERT(subscription.contains(123456));
    CPPUNIT_ASSERT_EQUAL(std::string(R"({"type":"subscribed","items":"*"})"),
                         subscription.acknowledgement());
    subscription.unsubscribe(parseClientMessage(R"({"type":"unsubscribe","items":"*"})"));
    CPPUNIT_ASSERT(subscription.empty());
    CPPUNIT_ASSERT(!subscription.contains(1));
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(ProtocolTest);
