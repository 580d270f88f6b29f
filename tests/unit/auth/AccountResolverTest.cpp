#include "AuthTestSupport.hpp"
#include "auth/AccountResolver.hpp"
#include "auth/LoginFlows.hpp"

#include <cppunit/extensions/HelperMacros.h>

using namespace skinpulse;
using auth::AccountResolver;

class AccountResolverTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(AccountResolverTest);
  CPPUNIT_TEST(testVerifiedEmailCreatesThenMatches);
  CPPUNIT_TEST(testUnverifiedOrMissingEmailIsRefused);
  CPPUNIT_TEST(testPlatformLoginCreatesThenMatches);
  CPPUNIT_TEST(testPlatformIdsOutsideTheRangeAreRefused);
  CPPUNIT_TEST(testLinkRefusesAnotherAccountsId);
  CPPUNIT_TEST(testLinkAddsAccountsUpToTheCap);
  CPPUNIT_TEST(testLoginFlowsAreSingleUsePerSession);
  CPPUNIT_TEST_SUITE_END();

 public:
  void setUp() override {
    state_ = std::make_unique<test::MemoryState>();
    resolver_ = std::make_unique<AccountResolver>(state_->database->users());
  }

  void testVerifiedEmailCreatesThenMatches() {
    const auto first = resolver_->loginByEmail("idp-a", email("s1", "Dana@Example.test", true), 1);
    CPPUNIT_ASSERT(!first.user_id.empty());
    // Another provider, same verified address in another case: the same account.
    const auto second = resolver_->loginByEmail("idp-b", email("s2", "dana@example.test", true), 2);
    CPPUNIT_ASSERT_EQUAL(first.user_id, second.user_id);
    const auto identities = state_->database->users().identitiesOf(first.user_id);
    CPPUNIT_ASSERT_EQUAL(std::size_t{2}, identities.size());
  }

  void testUnverifiedOrMissingEmailIsRefused() {
    resolver_->loginByEmail("idp-a", email("s1", "erin@example.test", true), 1);
    const auto unverified =
        resolver_->loginByEmail("idp-b", email("s9", "erin@example.test", false), 2);
    CPPUNIT_ASSERT(unverified.user_id.empty());
    CPPUNIT_ASSERT_EQUAL(std::string("email_unverified"), unverified.error_code);
    CPPUNIT_ASSERT_EQUAL(std::string("email_unverified"),
                         resolver_->loginByEmail("idp-b", email("s9", "", true), 2).error_code);
    CPPUNIT_ASSERT(!state_->database->users().findIdentity("idp-b", "s9"));
  }

  void testPlatformLoginCreatesThenMatches() {
    const auto first = resolver_->loginByPlatformId("gameid", platform("76561198000000005"), 1);
    CPPUNIT_ASSERT(!first.user_id.empty());
    CPPUNIT_ASSERT_EQUAL(
        first.user_id,
        resolver_->loginByPlatformId("gameid", platform("76561198000000005"), 2).user_id);
    CPPUNIT_ASSERT_EQUAL(std::string("76561198000000005"),
                         state_->database->users().gameLinkOf(first.user_id)->platform_id);
  }

  void testPlatformIdsOutsideTheRangeAreRefused() {
    for (const char* id : {"76561197960265728", "1", "7656119800000000x", ""}) {
      CPPUNIT_ASSERT_EQUAL(std::string("invalid_claimed_id"),
                           resolver_->loginByPlatformId("gameid", platform(id), 1).error_code);
      CPPUNIT_ASSERT_EQUAL(std::string("invalid_claimed_id"),
                           resolver_->linkPlatformId("gameid", "u", platform(id), 1).error_code);
    }
  }

  void testLinkRefusesAnotherAccountsId() {
    const auto owner = resolver_->loginByPlatformId("gameid", platform("76561198000000006"), 1);
    const auto other = resolver_->loginByEmail("idp-a", email("s1", "fay@example.test", true), 1);
    const auto refused =
        resolver_->linkPlatformId("gameid", other.user_id, platform("76561198000000006"), 2);
    CPPUNIT_ASSERT_EQUAL(std::string("already_linked"), refused.error_code);
    CPPUNIT_ASSERT(!state_->database->users().gameLinkOf(other.user_id));
    const auto linked =
        resolver_->linkPlatformId("gameid", other.user_id, platform("76561198000000007"), 2);
    CPPUNIT_ASSERT_EQUAL(other.user_id, linked.user_id);
    CPPUNIT_ASSERT(owner.user_id != other.user_id);
  }

  void testLinkAddsAccountsUpToTheCap() {
    const AccountResolver capped(state_->database->users(), 2);
    auto& users = state_->database->users();
    const auto user = capped.loginByEmail("idp-a", email("s1", "gil@example.test", true), 1);
    CPPUNIT_ASSERT_EQUAL(
        user.user_id,
        capped.linkPlatformId("gameid", user.user_id, platform("76561198000000011"), 10).user_id);
    CPPUNIT_ASSERT_EQUAL(
        user.user_id,
        capped.linkPlatformId("gameid", user.user_id, platform("76561198000000012"), 20).user_id);
    // The same id again: a success that changes nothing, even at the cap.
    const auto again =
        capped.linkPlatformId("gameid", user.user_id, platform("76561198000000011"), 30);
    CPPUNIT_ASSERT_EQUAL(user.user_id, again.user_id);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{10},
                         users.gameLinkByPlatformId("76561198000000011")->linked_at);
    const auto third =
        capped.linkPlatformId("gameid", user.user_id, platform("76561198000000013"), 40);
    CPPUNIT_ASSERT(third.user_id.empty());
    CPPUNIT_ASSERT_EQUAL(std::string("too_many_accounts"), third.error_code);
    CPPUNIT_ASSERT(!users.gameLinkByPlatformId("76561198000000013"));
    const auto links = users.gameLinksOf(user.user_id);
    CPPUNIT_ASSERT_EQUAL(std::size_t{2}, links.size());
    CPPUNIT_ASSERT_EQUAL(std::string("76561198000000011"), links[0].platform_id);
    // Signing in with either linked id reaches the same user.
    CPPUNIT_ASSERT_EQUAL(
        user.user_id,
        capped.loginByPlatformId("gameid", platform("76561198000000012"), 50).user_id);
  }

  void testLoginFlowsAreSingleUsePerSession() {
    const auth::LoginFlows flows(state_->store);
    http::SessionContext mine;
    mine.state = http::SessionContext::State::kActive;
    mine.key = "session:aaaa";
    http::SessionContext theirs = mine;
    theirs.key = "session:bbbb";
    flows.put(mine, "idp-a:login", {{"state", "s1"}, {"verifier", "v,\"1\""}});
    CPPUNIT_ASSERT(!flows.take(theirs, "idp-a:login"));
    CPPUNIT_ASSERT(!flows.take(mine, "idp-b:login"));
    const auto flow = flows.take(mine, "idp-a:login");
    CPPUNIT_ASSERT(flow);
    CPPUNIT_ASSERT_EQUAL(std::size_t{2}, flow->size());
    CPPUNIT_ASSERT_EQUAL(std::string("v,\"1\""), flow->at(1).second);
    CPPUNIT_ASSERT(!flows.take(mine, "idp-a:login"));  // used
    CPPUNIT_ASSERT(!flows.take(http::SessionContext{}, "idp-a:login"));
  }

 private:
  static sdk::VerifiedIdentity email(const std::string& subject, const std::string& address,
                                     bool verified) {
    sdk::VerifiedIdentity identity;
    identity.subject = subject;
    identity.email = address;
    identity.email_verified = verified;
    identity.display_name = "Name";
    return identity;
  }
  static sdk::VerifiedIdentity platform(const std::string& id) {
    sdk::VerifiedIdentity identity;
    identity.subject = id;
    return identity;
  }

  std::unique_ptr<test::MemoryState> state_;
  std::unique_ptr<AccountResolver> resolver_;
};

CPPUNIT_TEST_SUITE_REGISTRATION(AccountResolverTest);
