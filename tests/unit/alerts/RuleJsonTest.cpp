#include "alerts/RuleJson.hpp"

#include <cppunit/extensions/HelperMacros.h>

using namespace skinpulse;
using namespace skinpulse::alerts;

namespace {

const ParseOptions kPublic{false};

// The field an invalid body is refused for.
std::string refusedField(const std::string& body, bool require_all = true) {
  try {
    parseRuleBody(body, require_all, kPublic);
  } catch (const InvalidAlert& e) {
    return e.field();
  }
  return "";
}

const std::string kHook = R"([{"type":"webhook","url":"https://hooks.example.com/a"}])";

}  // namespace

class RuleJsonTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(RuleJsonTest);
  CPPUNIT_TEST(parsesEveryConditionType);
  CPPUNIT_TEST(namesTheBadField);
  CPPUNIT_TEST(malformedBodiesAreNotObjects);
  CPPUNIT_TEST(answersHideSecrets);
  CPPUNIT_TEST(storedFormsRoundTrip);
  CPPUNIT_TEST_SUITE_END();

 public:
  void parsesEveryConditionType() {
    const auto price = parseRuleBody(
        R"({"item_id":7,"condition":{"type":"price_above","value":1234,"source":"skinport"},"channels":)" +
            kHook + "}",
        true, kPublic);
    CPPUNIT_ASSERT(price.condition->type == ConditionType::kPriceAbove);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{1234}, price.condition->value);
    CPPUNIT_ASSERT_EQUAL(std::string("skinport"), *price.condition->source);
    const auto pc = parseRuleBody(
        R"({"condition":{"type":"percent_change","window":"7d","threshold":5,"direction":"down"}})",
        false, kPublic);
    CPPUNIT_ASSERT(pc.condition->type == ConditionType::kPercentChange);
    CPPUNIT_ASSERT_EQUAL(std::size_t{2}, pc.condition->window);
    CPPUNIT_ASSERT(pc.condition->direction == Direction::kDown);
    const auto bb = parseRuleBody(R"({"condition":{"type":"bollinger_break"}})", false, kPublic);
    CPPUNIT_ASSERT_EQUAL(std::size_t{1}, bb.condition->window);  // 24h by default
    const auto spread =
        parseRuleBody(R"({"condition":{"type":"spread_above","threshold":10.5}})", false, kPublic);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(10.5, spread.condition->threshold, 1e-12);
    const auto rank = parseRuleBody(
        R"({"condition":{"type":"volatility_rank","window":"1h","top":5}})", false, kPublic);
    CPPUNIT_ASSERT_EQUAL(5, rank.condition->top);
    const auto channels = parseRuleBody(
        R"({"channels":[{"type":"ws"},{"type":"telegram","bot_token":"123:ABCDEFGHIJKLMNOPQRSTUVWXYZ","chat_id":-100123},{"type":"discord","url":"https://discord.com/api/webhooks/1/tok"}]})",
        false, kPublic);
    CPPUNIT_ASSERT_EQUAL(std::size_t{3}, channels.channels->size());
    CPPUNIT_ASSERT_EQUAL(std::string("-100123"), (*channels.channels)[1].chat_id);
  }

  void namesTheBadField() {
    CPPUNIT_ASSERT_EQUAL(
        std::string("item_id"),
        refusedField(R"({"condition":{"type":"bollinger_break"},"channels":)" + kHook + "}"));
    CPPUNIT_ASSERT_EQUAL(std::string("item_id"), refusedField(R"({"item_id":"7"})", false));
    CPPUNIT_ASSERT_EQUAL(std::string("item_id"), refusedField(R"({"item_id":0})", false));
    CPPUNIT_ASSERT_EQUAL(std::string("colour"), refusedField(R"({"colour":1})", false));
    CPPUNIT_ASSERT_EQUAL(
        std::string("condition.value"),
        refusedField(R"({"condition":{"type":"price_below","value":1.5}})", false));
    CPPUNIT_ASSERT_EQUAL(
        std::string("condition.threshold"),
        refusedField(R"({"condition":{"type":"spread_above","threshold":true}})", false));
    CPPUNIT_ASSERT_EQUAL(
        std::string("condition.top"),
        refusedField(R"({"condition":{"type":"volatility_rank","top":101}})", false));
    CPPUNIT_ASSERT_EQUAL(
        std::string("condition.direction"),
        refusedField(
            R"({"condition":{"type":"percent_change","threshold":1,"direction":"sideways"}})",
            false));
    CPPUNIT_ASSERT_EQUAL(
        std::string("condition.extra"),
        refusedField(R"({"condition":{"type":"bollinger_break","extra":1}})", false));
    CPPUNIT_ASSERT_EQUAL(std::string("channels"), refusedField(R"({"channels":[]})", false));
    CPPUNIT_ASSERT_EQUAL(
        std::string("channels[0].url"),
        refusedField(R"({"channels":[{"type":"webhook","url":"http://x.com/"}]})", false));
    CPPUNIT_ASSERT_EQUAL(
        std::string("channels[1].url"),
        refusedField(
            R"({"channels":[{"type":"ws"},{"type":"discord","url":"https://user:pw@discord.com/x"}]})",
            false));
    CPPUNIT_ASSERT_EQUAL(
        std::string("channels[0].secret"),
        refusedField(R"({"channels":[{"type":"webhook","url":"https://a.com/","secret":"x"}]})",
                     false));
    CPPUNIT_ASSERT_EQUAL(
        std::string("channels[0].chat_id"),
        refusedField(
            R"({"channels":[{"type":"telegram","bot_token":"123:ABCDEFGHIJKLMNOPQRSTUVWXYZ","chat_id":"a b"}]})",
            false));
    CPPUNIT_ASSERT_EQUAL(std::string("cooldown_seconds"),
                         refusedField(R"({"cooldown_seconds":-1})", false));
    CPPUNIT_ASSERT_EQUAL(std::string("enabled"), refusedField(R"({"enabled":"yes"})", false));
    // Read-only fields of a rule sent back are ignored.
    CPPUNIT_ASSERT_EQUAL(std::string(""),
                         refusedField(R"({"id":3,"created_at":"x","last_fired_at":null})", false));
  }

  void malformedBodiesAreNotObjects() {
    for (const char* body : {"", "{", "[]", "42", "null", "\"x\""}) {
      CPPUNIT_ASSERT_THROW_MESSAGE(body, parseRuleBody(body, false, kPublic), MalformedBody);
    }
  }

  void answersHideSecrets() {
    Rule rule;
    rule.id = 3;
    rule.item_id = 7;
    rule.created_at = 1800000000;
    rule.channels = {
        Channel{ChannelType::kWebhook, "https://a.com/h", "whsec_1", "", ""},
        Channel{ChannelType::kDiscord, "https://discord.com/api/webhooks/1/tok", "", "", ""},
        Channel{ChannelType::kTelegram, "", "", "123:TOKEN", "42"}};
    common::JsonWriter shown;
    writeRule(shown, rule, false);
    const std::string text = shown.str();
    CPPUNIT_ASSERT(text.find("whsec_1") == std::string::npos);
    CPPUNIT_ASSERT(text.find("tok") == std::string::npos);
    CPPUNIT_ASSERT(text.find("123:TOKEN") == std::string::npos);
    CPPUNIT_ASSERT(text.find(R"("created_at":"2027-01-15T08:00:00Z","last_fired_at":null)") !=
                   std::string::npos);
    common::JsonWriter created;
    writeRule(created, rule, true);
    CPPUNIT_ASSERT(created.str().find(R"("secret":"whsec_1")") != std::string::npos);
    CPPUNIT_ASSERT(created.str().find("123:TOKEN") == std::string::npos);
  }

  void storedFormsRoundTrip() {
    Condition c;
    c.type = ConditionType::kPercentChange;
    c.window = 0;
    c.threshold = 2.5;
    c.direction = Direction::kUp;
    const auto back = storedCondition(conditionJson(c));
    CPPUNIT_ASSERT(back.type == c.type && back.window == 0 && back.direction == Direction::kUp);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(2.5, back.threshold, 1e-12);
    const std::vector<Channel> channels = {
        Channel{ChannelType::kWebhook, "http://10.0.0.1/h", "whsec_1", "", ""},
        Channel{ChannelType::kTelegram, "", "", "123:ABCDEFGHIJKLMNOPQRSTUVWXYZ", "@chan_name"},
        Channel{}};
    CPPUNIT_ASSERT(storedChannels(storedChannelsJson(channels)) == channels);
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(RuleJsonTest);
