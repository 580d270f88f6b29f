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
