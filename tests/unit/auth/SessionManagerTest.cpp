#include "AuthTestSupport.hpp"
#include "auth/SessionManager.hpp"

#include <cppunit/extensions/HelperMacros.h>

using namespace skinpulse;
using auth::IssuedSession;
using auth::SessionManager;
using auth::SessionOptions;
using http::SessionContext;

class SessionManagerTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(SessionManagerTest);
  CPPUNIT_TEST(testCreatedSessionLoadsFromItsCookie);
  CPPUNIT_TEST(testExpiryIsEnforcedServerSide);
  CPPUNIT_TEST(testRotationRetiresTheOldId);
  CPPUNIT_TEST(testDestroyEndsTheSession);
  CPPUNIT_TEST(testBadCookiesAreNoSession);
  CPPUNIT_TEST(testCookieAttributes);
  CPPUNIT_TEST(testSecureCookieUsesHostPrefix);
  CPPUNIT_TEST(testStoreOutageIsReported);
  CPPUNIT_TEST(testAnonymousSessionsAreShortAndSignInExtends);
  CPPUNIT_TEST(testTwoSessionCookiesAreNoSessionInEitherOrder);
  CPPUNIT_TEST(testATossedPlainCookieDoesNotCountBesideAHostPrefixedOne);
  CPPUNIT_TEST(testEndedSignedInSessionsAreAnnounced);
  CPPUNIT_TEST_SUITE_END();

 public:
  void setUp() override {
    now_ = 1'800'000'000;
    state_ = std::make_unique<test::MemoryState>();
    sessions_ =
        std::make_unique<SessionManager>(state_->store, settings(false), [this] { return now_; });
  }

  void testCreatedSessionLoadsFromItsCookie() {
    const IssuedSession issued = sessions_->create("user-1");
    const SessionContext loaded = load(issued.cookie_value);
    CPPUNIT_ASSERT(loaded.signedIn());
    CPPUNIT_ASSERT_EQUAL(std::string("user-1"), loaded.user_id);
    CPPUNIT_ASSERT_EQUAL(issued.context.csrf_token, loaded.csrf_token);
    CPPUNIT_ASSERT_EQUAL(now_ + 72 * 3600, loaded.expires_at);
    // The stored record is keyed by a hash: the raw id appears nowhere in the store.
    const std::string id = issued.cookie_value.substr(0, issued.cookie_value.find('.'));
    CPPUNIT_ASSERT(!state_->store.get("session:" + id));
    CPPUNIT_ASSERT(state_->store.get(loaded.key)->find(id) == std::string::npos);

    const SessionContext anonymous = load(sessions_->create("").cookie_value);
    CPPUNIT_ASSERT(anonymous.active());
    CPPUNIT_ASSERT(!anonymous.signedIn());
  }

  void testExpiryIsEnforcedServerSide() {
    const IssuedSession issued = sessions_->create("user-1");
    now_ += 72 * 3600 - 1;
    CPPUNIT_ASSERT(load(issued.cookie_value).signedIn());
    now_ += 1;  // the lifetime has passed; the store's own TTL (real time) has not
    CPPUNIT_ASSERT_EQUAL(SessionContext::State::kNone, load(issued.cookie_value).state);
    CPPUNIT_ASSERT(!state_->store.get(issued.context.key));  // and it is gone
  }

  void testRotationRetiresTheOldId() {
    const IssuedSession anonymous = sessions_->create("");
    const SessionContext before = load(anonymous.cookie_value);
    const IssuedSession rotated = sessions_->rotate(before, "user-2");
    CPPUNIT_ASSERT(rotated.cookie_value != anonymous.cookie_value);
    CPPUNIT_ASSERT(rotated.context.csrf_token != anonymous.context.csrf_token);
    CPPUNIT_ASSERT_EQUAL(SessionContext::State::kNone, load(anonymous.cookie_value).state);
    CPPUNIT_ASSERT_EQUAL(std::string("user-2"), load(rotated.cookie_value).user_id);
  }

  void testDestroyEndsTheSession() {
    const IssuedSession issued = sessions_->create("user-1");
    sessions_->destroy(load(issued.cookie_value));
    CPPUNIT_ASSERT_EQUAL(SessionContext::State::kNone, load(issued.cookie_value).state);
  }

  void testBadCookiesAreNoSession() {
    const IssuedSession issued = sessions_->create("user-1");
    std::string tampered = issued.cookie_value;
    tampered[5] = tampered[5] == 'x' ? 'y' : 'x';
    CPPUNIT_ASSERT_EQUAL(SessionContext::State::kNone, load(tampered).state);
    // Signed with another secret: a forged cookie for a real id.
    SessionManager other(state_->store,
                         SessionOptions{"x-another-secret-0123456789abcdef", 72, false});
    const auto forged = other.create("user-1");
    CPPUNIT_ASSERT_EQUAL(SessionContext::State::kNone, load(forged.cookie_value).state);
    CPPUNIT_ASSERT_EQUAL(SessionContext::State::kNone,
                         sessions_->load(test::makeRequest("GET", "/")).state);
    // A cookie of another name is not ours.
    CPPUNIT_ASSERT_EQUAL(
        SessionContext::State::kNone,
        sessions_->load(test::makeRequest("GET", "/", {{"Cookie", "other=" + issued.cookie_value}}))
            .state);
  }

  void testCookieAttributes() {
    const IssuedSession issued = sessions_->create("user-1");
    CPPUNIT_ASSERT_EQUAL(std::string("skinpulse_session"), sessions_->cookieName());
    CPPUNIT_ASSERT_EQUAL("skinpulse_session=" + issued.cookie_value +
                             "; Path=/; Max-Age=259200; HttpOnly; SameSite=Lax",
                         sessions_->setCookieHeader(issued));
    const std::string cleared = sessions_->clearCookieHeader();
    CPPUNIT_ASSERT(cleared.rfind("skinpulse_session=; Path=/; Max-Age=0;", 0) == 0);
    // Several cookies in one header, and several headers.
    const auto request = test::makeRequest(
        "GET", "/", {{"cookie", "a=1; skinpulse_session=" + issued.cookie_value + "; b=2"}});
    CPPUNIT_ASSERT(sessions_->load(request).signedIn());
  }

  void testSecureCookieUsesHostPrefix() {
    SessionManager secure(state_->store, settings(true), [this] { return now_; });
    CPPUNIT_ASSERT_EQUAL(std::string("__Host-skinpulse_session"), secure.cookieName());
    const auto issued = secure.create("u");
    const std::string header = secure.setCookieHeader(issued);
    CPPUNIT_ASSERT(header.find("; Secure") != std::string::npos);
    CPPUNIT_ASSERT(header.find("Path=/") != std::string::npos);
    CPPUNIT_ASSERT(secure.clearCookieHeader().find("; Secure") != std::string::npos);
  }

  void testStoreOutageIsReported() {
    const IssuedSession issued = sessions_->create("user-1");
    test::DownState down;
    SessionManager broken(down.store, settings(false), [this] { return now_; });
    const auto request =
        test::makeRequest("GET", "/", {{"Cookie", "skinpulse_session=" + issued.cookie_value}});
    CPPUNIT_ASSERT_THROW(broken.load(request), state::StoreUnavailable);
    CPPUNIT_ASSERT_THROW(broken.create("u"), state::StoreUnavailable);
  }

  // issue 31: every cookie-less /auth/csrf created a 72 h anonymous session.
  void testAnonymousSessionsAreShortAndSignInExtends() {
    const IssuedSession anonymous = sessions_->create("");
    CPPUNIT_ASSERT_EQUAL(now_ + 30 * 60, anonymous.context.expires_at);
    CPPUNIT_ASSERT(sessions_->setCookieHeader(anonymous).find("; Max-Age=1800;") !=
                   std::string::npos);
    const auto ttl = state_->store.ttlLeft(anonymous.context.key);  // the store's, real time
    CPPUNIT_ASSERT(ttl && *ttl <= 30 * 60 * 1000 && *ttl > 29 * 60 * 1000);
    now_ += 30 * 60 - 1;
    const SessionContext before = load(anonymous.cookie_value);
    CPPUNIT_ASSERT(before.active());
    const IssuedSession signedIn = sessions_->rotate(before, "user-1");
    CPPUNIT_ASSERT_EQUAL(now_ + 72 * 3600, signedIn.context.expires_at);
    CPPUNIT_ASSERT(sessions_->setCookieHeader(signedIn).find("; Max-Age=259200;") !=
                   std::string::npos);
    now_ += 2;  // the anonymous lifetime is over; the signed-in session is not
    CPPUNIT_ASSERT(load(signedIn.cookie_value).signedIn());
    // Never longer than a signed-in session.
    SessionManager shortLived(
        state_->store, SessionOptions{"unit-test-secret-0123456789abcdef0123", 1, false, 120},
        [this] { return now_; });
    CPPUNIT_ASSERT_EQUAL(std::int64_t{3600}, shortLived.anonymousLifetimeSeconds());
  }

  // issue 31: with several session cookies the first one won (cookie tossing).
  void testTwoSessionCookiesAreNoSessionInEitherOrder() {
    const std::string mine = "skinpulse_session=" + sessions_->create("user-1").cookie_value;
    const std::string tossed = "skinpulse_session=" + sessions_->create("").cookie_value;
    const std::string forged = "skinpulse_session=not-a-signed-value";
    CPPUNIT_ASSERT(sessions_->load(test::makeRequest("GET", "/", {{"Cookie", mine}})).signedIn());
    for (const auto& other : {tossed, forged, mine}) {
      for (const auto& header : {mine + "; " + other, other + "; " + mine}) {
        CPPUNIT_ASSERT_EQUAL(
            SessionContext::State::kNone,
            sessions_->load(test::makeRequest("GET", "/", {{"Cookie", header}})).state);
      }
      // The same across two Cookie headers, in both orders.
      CPPUNIT_ASSERT_EQUAL(
          SessionContext::State::kNone,
          sessions_->load(test::makeRequest("GET", "/", {{"Cookie", mine}, {"Cookie", other}}))
              .state);
      CPPUNIT_ASSERT_EQUAL(
          SessionContext::State::kNone,
          sessions_->load(test::makeRequest("GET", "/", {{"Cookie", other}, {"Cookie", mine}}))
              .state);
    }
  }

  // With Secure cookies only __Host-skinpulse_session is read: a host cannot set that
  // name for another, so a plain skinpulse_session beside it changes nothing.
  void testATossedPlainCookieDoesNotCountBesideAHostPrefixedOne() {
    SessionManager secure(state_->store, settings(true), [this] { return now_; });
    const std::string mine = "__Host-skinpulse_session=" + secure.create("user-1").cookie_value;
    const std::string tossed = "skinpulse_session=" + secure.create("").cookie_value;
    for (const auto& header : {mine + "; " + tossed, tossed + "; " + mine}) {
      CPPUNIT_ASSERT(secure.load(test::makeRequest("GET", "/", {{"Cookie", header}})).signedIn());
    }
    const std::string second = "__Host-skinpulse_session=" + secure.create("").cookie_value;
    CPPUNIT_ASSERT_EQUAL(
        SessionContext::State::kNone,
        secure.load(test::makeRequest("GET", "/", {{"Cookie", mine + "; " + second}})).state);
  }

  // issue 31: a signed-in WebSocket outlived its session; the end is now announced.
  void testEndedSignedInSessionsAreAnnounced() {
    struct Recorder final : state::SessionEnds {
      std::vector<std::string> keys;
      void sessionEnded(const std::string& key) override { keys.push_back(key); }
    } ends;
    sessions_->setSessionEnds(&ends);
    const SessionContext anonymous = load(sessions_->create("").cookie_value);
    const IssuedSession first = sessions_->rotate(anonymous, "user-1");  // a login
    CPPUNIT_ASSERT(ends.keys.empty());  // an anonymous session has no signed-in sockets
    const SessionContext signedIn = load(first.cookie_value);
    const IssuedSession linked = sessions_->rotate(signedIn, "user-1");  // a link
    CPPUNIT_ASSERT_EQUAL(std::size_t(1), ends.keys.size());
    CPPUNIT_ASSERT_EQUAL(signedIn.key, ends.keys[0]);
    sessions_->destroy(load(linked.cookie_value));  // a logout
    CPPUNIT_ASSERT_EQUAL(std::size_t(2), ends.keys.size());
    CPPUNIT_ASSERT_EQUAL(linked.context.key, ends.keys[1]);
    sessions_->destroy(SessionContext{});  // no session: nothing to tell
    CPPUNIT_ASSERT_EQUAL(std::size_t(2), ends.keys.size());
  }

 private:
  static SessionOptions settings(bool secure) {
    return SessionOptions{"unit-test-secret-0123456789abcdef0123", 72, secure};
  }
  SessionContext load(const std::string& cookie) const {
    return sessions_->load(
        test::makeRequest("GET", "/", {{"Cookie", "skinpulse_session=" + cookie}}));
  }

  std::int64_t now_ = 0;
  std::unique_ptr<test::MemoryState> state_;
  std::unique_ptr<SessionManager> sessions_;
};

CPPUNIT_TEST_SUITE_REGISTRATION(SessionManagerTest);
