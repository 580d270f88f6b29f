// The guard's order and refusals (docs/api.md §2): rate limit on /api/v1/auth (sliding,
// refusals not counted, client IP via trusted proxies only) → session (401, 503 on a
// store outage) → CSRF (403, constant-time compare).

#include "AuthTestSupport.hpp"
#include "auth/AuthGuard.hpp"
#include "auth/Csrf.hpp"
#include "http/HttpError.hpp"
#include "http/Router.hpp"

#include <cppunit/extensions/HelperMacros.h>

using namespace skinpulse;

class AuthGuardTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(AuthGuardTest);
  CPPUNIT_TEST(testPublicRouteWithoutCookie);
  CPPUNIT_TEST(testRequireAuthAnswers401);
  CPPUNIT_TEST(testCsrfMissingOrWrongIs403);
  CPPUNIT_TEST(testCsrfWithoutSessionIs403);
  CPPUNIT_TEST(testRateLimitSlidingWindow);
  CPPUNIT_TEST(testRateLimitOnlyOnAuthPaths);
  CPPUNIT_TEST(testRateLimitPerClientBehindTrustedProxy);
  CPPUNIT_TEST(testAnUnknownRateLimitScopeIsRefused);
  CPPUNIT_TEST(testStoreOutageFailsClosed);
  CPPUNIT_TEST(testInlineRouteNeverLoadsTheSession);
  CPPUNIT_TEST(testConstantTimeEquals);
  CPPUNIT_TEST_SUITE_END();

 public:
  void setUp() override {
    clock_ms_ = 1'800'000'000'000;
    state_ = std::make_unique<test::MemoryState>();
    build(state_->store, {"10.0.0.0/8"});
  }

  void testPublicRouteWithoutCookie() {
    auto request = test::makeRequest("GET", "/api/v1/items");
    guard_->admit(request, routed(request));
    CPPUNIT_ASSERT_EQUAL(http::SessionContext::State::kNone, request.session.state);
  }

  void testRequireAuthAnswers401() {
    auto none = test::makeRequest("GET", "/api/v1/portfolio");
    CPPUNIT_ASSERT_EQUAL(401, refusal(none, userRoute()).status());
    // An anonymous session (from /auth/csrf) is not a signed-in one.
    auto anonymous = withCookie("GET", "/api/v1/portfolio", sessions_->create(""));
    CPPUNIT_ASSERT_EQUAL(std::string("unauthenticated"), refusal(anonymous, userRoute()).code());
    auto signedIn = withCookie("GET", "/api/v1/portfolio", sessions_->create("u1"));
    guard_->admit(signedIn, userRoute());
    CPPUNIT_ASSERT_EQUAL(std::string("u1"), signedIn.session.user_id);
  }

  void testCsrfMissingOrWrongIs403() {
    const auto issued = sessions_->create("u1");
    auto missing = withCookie("POST", "/api/v1/portfolio/import", issued);
    CPPUNIT_ASSERT_EQUAL(std::string("csrf_failed"), refusal(missing, userRoute()).code());
    auto wrong = withCookie("POST", "/api/v1/portfolio/import", issued,
                            {{"X-CSRF-Token", sessions_->create("u1").context.csrf_token}});
    CPPUNIT_ASSERT_EQUAL(403, refusal(wrong, userRoute()).status());
    auto prefix = withCookie("POST", "/api/v1/portfolio/import", issued,
                             {{"X-CSRF-Token", issued.context.csrf_token.substr(0, 10)}});
    CPPUNIT_ASSERT_EQUAL(403, refusal(prefix, userRoute()).status());
    auto right = withCookie("POST", "/api/v1/portfolio/import", issued,
                            {{"X-CSRF-Token", issued.context.csrf_token}});
    guard_->admit(right, userRoute());
    // GET needs no token.
    auto get = withCookie("GET", "/api/v1/portfolio", issued);
    guard_->admit(get, userRoute());
  }

  void testCsrfWithoutSessionIs403() {
    auto request = test::makeRequest("DELETE", "/api/v1/something", {{"X-CSRF-Token", ""}});
    CPPUNIT_ASSERT_EQUAL(std::string("csrf_failed"), refusal(request, routed(request)).code());
  }

  void testRateLimitSlidingWindow() {
    build(state_->store, {}, 3);
    for (int i = 0; i < 3; ++i) {
      auto request = test::makeRequest("GET", "/api/v1/auth/csrf");
      guard_->admit(request, routed(request));
      clock_ms_ += 10'000;
    }
    // 30 s after the first: refused until the first leaves the window, 30 s later.
    auto fourth = test::makeRequest("GET", "/api/v1/auth/csrf");
    const auto refused = refusal(fourth, routed(fourth));
    CPPUNIT_ASSERT_EQUAL(429, refused.status());
    CPPUNIT_ASSERT_EQUAL(std::string("rate_limited"), refused.code());
    CPPUNIT_ASSERT_EQUAL(std::string("Retry-After"), refused.headers().at(0).first);
    CPPUNIT_ASSERT_EQUAL(std::string("30"), refused.headers().at(0).second);
    // Hammering while refused is not counted...
    for (int i = 0; i < 25; ++i) {
      clock_ms_ += 1'000;
      auto again = test::makeRequest("GET", "/api/v1/auth/providers");
      CPPUNIT_ASSERT_EQUAL(429, refusal(again, routed(again)).status());
    }
    // ...so the client is admitted once its first request is 60 s old.
    clock_ms_ += 5'000;
    auto later = test::makeRequest("GET", "/api/v1/auth/csrf");
    guard_->admit(later, routed(later));
  }

  void testRateLimitOnlyOnAuthPaths() {
    build(state_->store, {}, 1);
    for (int i = 0; i < 5; ++i) {
      auto request = test::makeRequest("GET", "/api/v1/items");
      guard_->admit(request, routed(request));
      auto lookalike = test::makeRequest("GET", "/api/v1/authx");
      guard_->admit(lookalike, routed(lookalike));
    }
    auto first = test::makeRequest("GET", "/api/v1/auth");
    guard_->admit(first, routed(first));
    auto second = test::makeRequest("GET", "/api/v1/auth/gameid/login");
    CPPUNIT_ASSERT_EQUAL(429, refusal(second, routed(second)).status());
  }

  void testRateLimitPerClientBehindTrustedProxy() {
    build(state_->store, {"10.0.0.0/8"}, 1);
    auto viaProxy = [](const std::string& peer, const std::string& client) {
      return test::makeRequest("GET", "/api/v1/auth/csrf", {{"X-Forwarded-For", client}}, peer);
    };
    auto a = viaProxy("10.0.0.1", "203.0.113.1");
    guard_->admit(a, routed(a));
    auto b = viaProxy("10.0.0.1", "203.0.113.2");  // another client behind the same proxy
    guard_->admit(b, routed(b));
    auto a2 = viaProxy("10.0.0.2", "203.0.113.1");  // the same client through another proxy
    CPPUNIT_ASSERT_EQUAL(429, refusal(a2, routed(a2)).status());
    // An untrusted peer's header is ignored: its own address is counted.
    auto forged1 = viaProxy("198.51.100.1", "203.0.113.50");
    guard_->admit(forged1, routed(forged1));
    auto forged2 = viaProxy("198.51.100.1", "203.0.113.51");
    CPPUNIT_ASSERT_EQUAL(429, refusal(forged2, routed(forged2)).status());
  }

  void testAnUnknownRateLimitScopeIsRefused() {
    // A route naming a budget the guard does not have is a wiring mistake: refused (the
    // dispatcher answers 500), never served unlimited.
    http::RouteOptions scoped;
    scoped.rate_limit_scope = "search";
    auto request = test::makeRequest("GET", "/api/v1/search");
    CPPUNIT_ASSERT_THROW(guard_->admit(request, scoped), std::logic_error);
  }

  void testStoreOutageFailsClosed() {
    const auto issued = sessions_->create("u1");
    test::DownState down;
    build(down.store, {});
    // A public route still works, without a user context.
    auto items = withCookie("GET", "/api/v1/items", issued);
    guard_->admit(items, routed(items));
    CPPUNIT_ASSERT_EQUAL(http::SessionContext::State::kUnavailable, items.session.state);
    // A route that needs the session: 503, never 401.
    auto portfolio = withCookie("GET", "/api/v1/portfolio", issued);
    const auto refused = refusal(portfolio, userRoute());
    CPPUNIT_ASSERT_EQUAL(503, refused.status());
    CPPUNIT_ASSERT_EQUAL(std::string("store_unavailable"), refused.code());
    auto post = withCookie("POST", "/api/v1/portfolio/import", issued,
                           {{"X-CSRF-Token", issued.context.csrf_token}});
    CPPUNIT_ASSERT_EQUAL(503, refusal(post, userRoute()).status());
    // The auth paths need the store for their rate limit.
    auto csrf = test::makeRequest("GET", "/api/v1/auth/csrf");
    CPPUNIT_ASSERT_EQUAL(503, refusal(csrf, routed(csrf)).status());
  }

  void testInlineRouteNeverLoadsTheSession() {
    // Inline routes run on an HTTP event loop (docs/adr/0010-front-door.md): the guard
    // must not reach the session store for them, alive or down.
    http::RouteOptions inline_route;
    inline_route.runs_inline = true;
    const auto issued = sessions_->create("u1");
    auto live = withCookie("GET", "/api/v1/items", issued);
    guard_->admit(live, inline_route);
    CPPUNIT_ASSERT_EQUAL(http::SessionContext::State::kNone, live.session.state);
    test::DownState down;
    build(down.store, {});
    auto outage = withCookie("GET", "/api/v1/items", issued);
    guard_->admit(outage, inline_route);  // no StoreUnavailable, no 503
    CPPUNIT_ASSERT_EQUAL(http::SessionContext::State::kNone, outage.session.state);
  }

  void testConstantTimeEquals() {
    CPPUNIT_ASSERT(auth::constantTimeEquals("abc", "abc"));
    CPPUNIT_ASSERT(!auth::constantTimeEquals("abc", "abd"));
    CPPUNIT_ASSERT(!auth::constantTimeEquals("abc", "abcd"));
    CPPUNIT_ASSERT(auth::constantTimeEquals("", ""));
    CPPUNIT_ASSERT(auth::isStateChanging("POST") && auth::isStateChanging("DELETE"));
    CPPUNIT_ASSERT(!auth::isStateChanging("GET") && !auth::isStateChanging("HEAD"));
  }

 private:
  void build(state::SharedStore& store, const std::vector<std::string>& proxies,
             std::int64_t limit = 20) {
    guard_.reset();
    limiter_ = std::make_unique<auth::RateLimiter>(store, "auth", limit, 60'000,
                                                   [this] { return clock_ms_; });
    proxies_ = std::make_unique<http::TrustedProxies>(proxies);
    sessions_ = std::make_unique<auth::SessionManager>(
        store, auth::SessionOptions{"unit-test-secret-0123456789abcdef0123", 72, false});
    guard_ = std::make_unique<auth::AuthGuard>(*sessions_, *limiter_, *proxies_);
  }

  /// The options the daemon's router gives `request`'s route: AuthApi declares the
  /// sign-in rate limit on the /api/v1/auth prefix (Router::policy), every other path is
  /// a public route.
  static http::RouteOptions routed(const http::Request& request) {
    http::Router router;
    router.policy("/api/v1/auth", http::PathPolicy{.no_store = true,
                                                   .rate_limit_scope = auth::kAuthRateLimitScope});
    router.add(request.method, request.path, [](http::Request&, http::Response&) {});
    std::map<std::string, std::string> params;
    return router.match(request.method, request.path, params).options;
  }
  static http::RouteOptions userRoute() {
    http::RouteOptions options;
    options.requires_user = true;
    return options;
  }

  http::Request withCookie(const std::string& method, const std::string& path,
                           const auth::IssuedSession& issued, http::Headers extra = {}) const {
    extra.emplace_back("Cookie", "skinpulse_session=" + issued.cookie_value);
    return test::makeRequest(method, path, std::move(extra));
  }

  http::HttpError refusal(http::Request& request, const http::RouteOptions& route) const {
    try {
      guard_->admit(request, route);
    } catch (const http::HttpError& error) {
      return error;
    }
    CPPUNIT_FAIL("the guard admitted " + request.method + " " + request.path);
    throw std::logic_error("unreachable");
  }

  std::int64_t clock_ms_ = 0;
  std::unique_ptr<test::MemoryState> state_;
  std::unique_ptr<auth::RateLimiter> limiter_;
  std::unique_ptr<http::TrustedProxies> proxies_;
  std::unique_ptr<auth::SessionManager> sessions_;
  std::unique_ptr<auth::AuthGuard> guard_;
};

CPPUNIT_TEST_SUITE_REGISTRATION(AuthGuardTest);
