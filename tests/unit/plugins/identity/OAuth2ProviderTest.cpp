#include "skinpulse/sdk/url_encoding.hpp"

#include "IdentityTestSupport.hpp"
#include "OAuth2Provider.hpp"
#include "Pkce.hpp"
#include "UrlParts.hpp"

#include <cppunit/extensions/HelperMacros.h>

#include <memory>
#include <stdexcept>
#include <vector>

using identity_test::answer;
using identity_test::deepJson;
using identity_test::field;
using skinpulse::plugins::identity::splitUrl;
using skinpulse::plugins::oauth2::OAuth2Provider;
using skinpulse::plugins::oauth2::s256Challenge;
using skinpulse::sdk::Fields;
using skinpulse::sdk::HttpResponse;
using skinpulse::sdk::LoginContext;
using skinpulse::sdk::parseQuery;
using skinpulse::sdk::Status;
using skinpulse::sdk::VerifiedIdentity;
using skinpulse::test::MockHost;
using skinpulse::test::MockHttp;

namespace {

const std::string kCallback = "https://skins.example/api/v1/auth/idp-a/callback";
const std::string kState = "STATE-0123456789abcdefghijklmnopqrstuvwxyzABC";
const std::string kVerifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";
const std::string kToken = R"({"access_token":"tok-123","token_type":"Bearer","expires_in":3599})";
const std::string kUserinfo =
    R"({"sub":"1100220033","email":"ann@example.org","email_verified":true,"name":"Ann",)"
    R"("picture":"https://img.example/ann.png"})";
const std::string kUser = R"({"id":583231,"login":"octocat","name":"The Octocat",)"
                          R"("avatar_url":"https://avatars.example/u/583231","email":null})";

}  // namespace

class OAuth2ProviderTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(OAuth2ProviderTest);
  CPPUNIT_TEST(beginRedirectsWithStateAndS256Challenge);
  CPPUNIT_TEST(beginUsesFreshHostTokensForStateAndVerifier);
  CPPUNIT_TEST(idpBScopesAndEndpoint);
  CPPUNIT_TEST(refusesBadConfiguration);
  CPPUNIT_TEST(stateMismatchIsRefusedBeforeAnyUpstreamCall);
  CPPUNIT_TEST(flowForAnotherCallbackIsRefused);
  CPPUNIT_TEST(providerErrorParameter);
  CPPUNIT_TEST(missingOrRepeatedCode);
  CPPUNIT_TEST(tokenRequestIsExactFormPost);
  CPPUNIT_TEST(tokenErrorsAreProviderErrors);
  CPPUNIT_TEST(hostileTokenAnswers);
  CPPUNIT_TEST(idpASuccess);
  CPPUNIT_TEST(idpAUnverifiedOrMissingEmail);
  CPPUNIT_TEST(idpAHostileUserinfo);
  CPPUNIT_TEST(idpBPicksThePrimaryVerifiedAddress);
  CPPUNIT_TEST(idpBUnverifiedPrimaryIsRefused);
  CPPUNIT_TEST(idpBHostileAnswers);
  CPPUNIT_TEST(everyUpstreamCallIsBounded);
  CPPUNIT_TEST(secretsNeverReachTheLog);
  CPPUNIT_TEST_SUITE_END();

 public:
  void setUp() override {
    host_ = std::make_unique<MockHost>();
    host_->settings = {{"flavour", "idp-a"},
                       {"client_id", "client-a"},
                       {"client_secret", "s3cret/+&="},
                       {"auth_url", "https://idp-a.test/authorize"},
                       {"token_url", "https://idp-a.test/token"},
                       {"userinfo_url", "https://idp-a.test/userinfo"}};
  }

  void useIdpB() {
    host_->settings = {{"flavour", "idp-b"},
                       {"client_id", "client-b"},
                       {"client_secret", "secret-b"},
                       {"auth_url", "https://idp-b.test/login/oauth/authorize"},
                       {"token_url", "https://idp-b.test/login/oauth/access_token"},
                       {"api_url", "https://api.idp-b.test/"}};
  }

  LoginContext context() const { return LoginContext{kCallback, "https://skins.example"}; }
  Fields flow() const {
    return {{"state", kState}, {"code_verifier", kVerifier}, {"redirect_uri", kCallback}};
  }
  Fields callback(const std::string& code = "auth-code") const {
    return {{"code", code}, {"state", kState}};
  }
  VerifiedIdentity completeWith(const Fields& params) {
    OAuth2Provider provider(*host_);
    return provider.complete(context(), params, kCallback + "?ignored", flow());
  }
  void scriptIdpA(const std::string& userinfo = kUserinfo) {
    host_->http_client.on("https://idp-a.test/token", answer(200, kToken));
    host_->http_client.on("https://idp-a.test/userinfo", answer(200, userinfo));
  }
  void scriptIdpB(const std::string& emails) {
    host_->http_client.on("https://idp-b.test/login/oauth/access_token",
                          answer(200, R"({"access_token":"gho_x","token_type":"bearer"})"));
    host_->http_client.on("https://api.idp-b.test/user", answer(200, kUser));
    host_->http_client.on("https://api.idp-b.test/user/emails", answer(200, emails));
  }
  static void assertRefused(const VerifiedIdentity& identity, const std::string& code) {
    CPPUNIT_ASSERT(!identity.status.isOk());
    CPPUNIT_ASSERT_EQUAL(code, identity.error_code);
    CPPUNIT_ASSERT(identity.subject.empty());
    CPPUNIT_ASSERT(identity.email.empty());
  }

  void beginRedirectsWithStateAndS256Challenge() {
    host_->random_tokens = {kState, kVerifier};
    OAuth2Provider provider(*host_);
    const auto start = provider.begin(context());
    CPPUNIT_ASSERT(start.status.isOk());
    const auto url = splitUrl(start.redirect_url);
    CPPUNIT_ASSERT_EQUAL(std::string("https://idp-a.test/authorize"), url.base);
    const auto query = parseQuery(url.query).value();
    CPPUNIT_ASSERT_EQUAL(std::string("code"), field(query, "response_type").value());
    CPPUNIT_ASSERT_EQUAL(std::string("client-a"), field(query, "client_id").value());
    CPPUNIT_ASSERT_EQUAL(kCallback, field(query, "redirect_uri").value());
    CPPUNIT_ASSERT_EQUAL(std::string("openid email profile"), field(query, "scope").value());
    CPPUNIT_ASSERT_EQUAL(kState, field(query, "state").value());
    CPPUNIT_ASSERT_EQUAL(std::string("E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"),
                         field(query, "code_challenge").value());
    CPPUNIT_ASSERT_EQUAL(std::string("S256"), field(query, "code_challenge_method").value());
    // The verifier and the secret stay on the server.
    CPPUNIT_ASSERT(start.redirect_url.find(kVerifier) == std::string::npos);
    CPPUNIT_ASSERT(start.redirect_url.find("s3cret") == std::string::npos);
    CPPUNIT_ASSERT(flow() == start.flow);
  }

  void beginUsesFreshHostTokensForStateAndVerifier() {
    host_->random_tokens = {std::string(43, 'a'), std::string(43, 'b'), std::string(43, 'c'),
                            std::string(43, 'd')};
    OAuth2Provider provider(*host_);
    const auto first = provider.begin(context());
    const auto second = provider.begin(context());
    CPPUNIT_ASSERT_EQUAL(std::string(43, 'a'), field(first.flow, "state").value());
    CPPUNIT_ASSERT_EQUAL(std::string(43, 'b'), field(first.flow, "code_verifier").value());
    CPPUNIT_ASSERT_EQUAL(std::string(43, 'c'), field(second.flow, "state").value());
    CPPUNIT_ASSERT_EQUAL(std::string(43, 'd'), field(second.flow, "code_verifier").value());
    // ≥ 128 bits each: the plugin asks the host for 32 bytes.
    CPPUNIT_ASSERT(skinpulse::plugins::oauth2::kRandomBytes * 8 >= 128);
  }

  void idpBScopesAndEndpoint() {
    useIdpB();
    OAuth2Provider provider(*host_);
    const auto start = provider.begin(context());
    const auto url = splitUrl(start.redirect_url);
    CPPUNIT_ASSERT_EQUAL(std::string("https://idp-b.test/login/oauth/authorize"), url.base);
    const auto query = parseQuery(url.query).value();
    CPPUNIT_ASSERT_EQUAL(std::string("read:user user:email"), field(query, "scope").value());
    CPPUNIT_ASSERT_EQUAL(std::string("S256"), field(query, "code_challenge_method").value());
  }

  void refusesBadConfiguration() {
    auto settings = host_->settings;
    for (const char* key :
         {"flavour", "client_id", "client_secret", "auth_url", "token_url", "userinfo_url"}) {
      host_->settings = settings;
      host_->settings.erase(key);
      CPPUNIT_ASSERT_THROW_MESSAGE(key, OAuth2Provider provider(*host_), std::invalid_argument);
    }
    host_->settings = settings;
    host_->settings["flavour"] = "idp-c";
    CPPUNIT_ASSERT_THROW(OAuth2Provider provider(*host_), std::invalid_argument);
    host_->settings = settings;
    host_->settings["token_url"] = "ftp://idp-a.test/token";
    CPPUNIT_ASSERT_THROW(OAuth2Provider provider(*host_), std::invalid_argument);
    useIdpB();
    host_->settings.erase("api_url");
    CPPUNIT_ASSERT_THROW(OAuth2Provider provider(*host_), std::invalid_argument);
  }

  void stateMismatchIsRefusedBeforeAnyUpstreamCall() {
    scriptIdpA();
    const std::vector<Fields> cases = {
        {{"code", "c"}},
        {{"code", "c"}, {"state", ""}},
        {{"code", "c"}, {"state", kState + "x"}},
        {{"code", "c"}, {"state", kState.substr(1)}},
        {{"code", "c"}, {"state", kState}, {"state", kState}},
        {{"error", "access_denied"}, {"state", "forged"}},
    };
    for (const auto& params : cases) assertRefused(completeWith(params), "state_mismatch");
    // A flow without a state (nothing was started in this session) matches nothing.
    OAuth2Provider provider(*host_);
    assertRefused(provider.complete(context(), {{"code", "c"}, {"state", ""}}, kCallback, {}),
                  "state_mismatch");
    CPPUNIT_ASSERT(host_->http_client.requests().empty());
  }

  void flowForAnotherCallbackIsRefused() {
    scriptIdpA();
    OAuth2Provider provider(*host_);
    const LoginContext other{"https://skins.example/api/v1/auth/idp-b/callback",
                             "https://skins.example"};
    assertRefused(provider.complete(other, callback(), kCallback, flow()), "state_mismatch");
    CPPUNIT_ASSERT(host_->http_client.requests().empty());
  }

  void providerErrorParameter() {
    scriptIdpA();
    const auto identity = completeWith({{"error", "access_denied"}, {"state", kState}});
    assertRefused(identity, "provider_error");
    CPPUNIT_ASSERT(identity.status.code() == Status::Code::kRejected);
    assertRefused(completeWith({{"error", "x"}, {"error", "y"}, {"state", kState}}),
                  "provider_error");
    CPPUNIT_ASSERT(host_->http_client.requests().empty());
  }

  void missingOrRepeatedCode() {
    scriptIdpA();
    assertRefused(completeWith({{"state", kState}}), "provider_error");
    assertRefused(completeWith({{"state", kState}, {"code", ""}}), "provider_error");
    assertRefused(completeWith({{"state", kState}, {"code", "a"}, {"code", "b"}}),
                  "provider_error");
    assertRefused(completeWith(callback(std::string(4096, 'c'))), "provider_error");
    CPPUNIT_ASSERT(host_->http_client.requests().empty());
  }

  void tokenRequestIsExactFormPost() {
    scriptIdpA();
    CPPUNIT_ASSERT(completeWith(callback("a code/+&")).status.isOk());
    const auto requests = host_->http_client.requests();
    CPPUNIT_ASSERT_EQUAL(std::size_t{2}, requests.size());
    const auto& token = requests[0];
    CPPUNIT_ASSERT_EQUAL(std::string("POST"), token.method);
    CPPUNIT_ASSERT_EQUAL(std::string("https://idp-a.test/token"), token.url);  // no query
    CPPUNIT_ASSERT_EQUAL(std::string("application/x-www-form-urlencoded"),
                         field(token.headers, "Content-Type").value());
    CPPUNIT_ASSERT_EQUAL(std::string("application/json"), field(token.headers, "Accept").value());
    CPPUNIT_ASSERT_EQUAL(
        std::string("grant_type=authorization_code&code=a%20code%2F%2B%26"
                    "&redirect_uri=https%3A%2F%2Fskins.example%2Fapi%2Fv1%2Fauth%2Fidp-a%2Fcallback"
                    "&code_verifier=" +
                    kVerifier + "&client_id=client-a&client_secret=s3cret%2F%2B%26%3D"),
        token.body);
    CPPUNIT_ASSERT(!field(token.headers, "Authorization"));
    const auto& userinfo = requests[1];
    CPPUNIT_ASSERT_EQUAL(std::string("GET"), userinfo.method);
    CPPUNIT_ASSERT_EQUAL(std::string("Bearer tok-123"),
                         field(userinfo.headers, "Authorization").value());
  }

  void tokenErrorsAreProviderErrors() {
    const std::vector<HttpResponse> answers = {
        answer(400, R"({"error":"invalid_grant","error_description":"Bad Request"})"),
        answer(200, R"({"error":"bad_verification_code","access_token":"x"})"),
        answer(401, R"({"error":"invalid_client"})"),
        answer(500, "oops"),
        answer(429, ""),
        MockHttp::failure(HttpResponse::Error::kTimeout, "timed out"),
        MockHttp::failure(HttpResponse::Error::kConnect, "refused"),
        MockHttp::failure(HttpResponse::Error::kTooLarge, "cap"),
    };
    for (const auto& response : answers) {
      setUp();
      host_->http_client.on("https://idp-a.test/token", response);
      host_->http_client.on("https://idp-a.test/userinfo", answer(200, kUserinfo));
      assertRefused(completeWith(callback()), "provider_error");
      CPPUNIT_ASSERT_EQUAL(std::size_t{1}, host_->http_client.requests().size());
    }
    setUp();
    host_->http_client.on("https://idp-a.test/token",
                          MockHttp::failure(HttpResponse::Error::kTimeout, "t"));
    CPPUNIT_ASSERT(completeWith(callback()).status.code() == Status::Code::kUnavailable);
  }

  void hostileTokenAnswers() {
    const std::vector<std::string> bodies = {
        "",
        "access_token=gho_x&token_type=bearer",  // form-encoded answer
        "[]",
        R"("just a string")",
        R"({"access_token":12345})",
        R"({"access_token":""})",
        R"({"access_token":"a\r\nX-Injected: 1"})",
        R"({"access_token":"a b"})",
        R"({"access_token":")" + std::string(5000, 'a') + R"("})",
        R"({"access_token":"ok","token_type":"mac"})",
        R"({"access_token":"ok","token_type":null})",
        R"({"access_token":"ok")",
        R"({"access_token":"ok","x":)" + deepJson(100000) + "}",
    };
    for (const auto& body : bodies) {
      setUp();
      host_->http_client.on("https://idp-a.test/token", answer(200, body));
      host_->http_client.on("https://idp-a.test/userinfo", answer(200, kUserinfo));
      assertRefused(completeWith(callback()), "provider_error");
      CPPUNIT_ASSERT_EQUAL(std::size_t{1}, host_->http_client.requests().size());
    }
  }

  void idpASuccess() {
    scriptIdpA();
    const auto identity = completeWith(callback());
    CPPUNIT_ASSERT(identity.status.isOk());
    CPPUNIT_ASSERT_EQUAL(std::string("1100220033"), identity.subject);
    CPPUNIT_ASSERT_EQUAL(std::string("ann@example.org"), identity.email);
    CPPUNIT_ASSERT(identity.email_verified);
    CPPUNIT_ASSERT_EQUAL(std::string("Ann"), identity.display_name);
    CPPUNIT_ASSERT_EQUAL(std::string("https://img.example/ann.png"), identity.avatar_url);
    CPPUNIT_ASSERT(identity.error_code.empty());
    CPPUNIT_ASSERT(identity.replay_key.empty());
    // Some providers send the claim as the string "true".
    setUp();
    scriptIdpA(R"({"sub":"7","email":"b@example.org","email_verified":"true"})");
    CPPUNIT_ASSERT(completeWith(callback()).status.isOk());
  }

  void idpAUnverifiedOrMissingEmail() {
    const std::vector<std::string> bodies = {
        R"({"sub":"7","email":"b@example.org","email_verified":false})",
        R"({"sub":"7","email":"b@example.org"})",
        R"({"sub":"7","email":"b@example.org","email_verified":"false"})",
        R"({"sub":"7","email":"b@example.org","email_verified":1})",
        R"({"sub":"7","email":"b@example.org","email_verified":"TRUE"})",
        R"({"sub":"7","email":"b@example.org","email_verified":null})",
        R"({"sub":"7","email_verified":true})",
        R"({"sub":"7","email":null,"email_verified":true})",
        R"({"sub":"7","email":"","email_verified":true})",
        R"({"sub":"7","email":"no-at-sign","email_verified":true})",
        R"({"sub":"7","email":"a@b@c","email_verified":true})",
        R"({"sub":"7","email":"a b@example.org","email_verified":true})",
        R"({"sub":"7","email":["a@example.org"],"email_verified":true})",
    };
    for (const auto& body : bodies) {
      setUp();
      scriptIdpA(body);
      assertRefused(completeWith(callback()), "email_unverified");
    }
  }

  void idpAHostileUserinfo() {
    const std::vector<std::string> bodies = {
        "",
        "null",
        "[]",
        R"({"email":"a@example.org","email_verified":true})",
        R"({"sub":7,"email":"a@example.org","email_verified":true})",
        R"({"sub":"","email":"a@example.org","email_verified":true})",
        R"({"sub":"a\nb","email":"a@example.org","email_verified":true})",
        R"({"sub":")" + std::string(300, 's') +
            R"(","email":"a@example.org","email_verified":true})",
        deepJson(50),
        "{\"sub\":\"1\",\"x\":" + deepJson(100000) + "}",
    };
    for (const auto& body : bodies) {
      setUp();
      scriptIdpA(body);
      assertRefused(completeWith(callback()), "provider_error");
    }
    // Unsafe display values are cleaned or dropped, never passed on raw.
    setUp();
    scriptIdpA(R"j({"sub":"7","email":"b@example.org","email_verified":true,)j"
               R"j("name":"Evil\u0000\r\nName","picture":"javascript:alert(1)"})j");
    const auto identity = completeWith(callback());
    CPPUNIT_ASSERT(identity.status.isOk());
    CPPUNIT_ASSERT_EQUAL(std::string("EvilName"), identity.display_name);
    CPPUNIT_ASSERT(identity.avatar_url.empty());
    setUp();
    scriptIdpA(std::string(R"({"sub":"7","email":"b@example.org","email_verified":true,"name":")") +
               std::string(1000, 'n') + "\"}");
    CPPUNIT_ASSERT_EQUAL(std::size_t{200}, completeWith(callback()).display_name.size());
    setUp();
    host_->http_client.on("https://idp-a.test/token", answer(200, kToken));
    host_->http_client.on("https://idp-a.test/userinfo", answer(401, "{}"));
    assertRefused(completeWith(callback()), "provider_error");
  }

  void idpBPicksThePrimaryVerifiedAddress() {
    useIdpB();
    scriptIdpB(
        R"([{"email":"old@example.org","primary":false,"verified":true},)"
        R"({"email":"octo@example.org","primary":true,"verified":true,"visibility":"private"},)"
        R"({"email":"x@example.org","primary":false,"verified":false}])");
    OAuth2Provider provider(*host_);
    const LoginContext ctx{kCallback, "https://skins.example"};
    const auto identity = provider.complete(ctx, callback(), kCallback, flow());
    CPPUNIT_ASSERT(identity.status.isOk());
    CPPUNIT_ASSERT_EQUAL(std::string("583231"), identity.subject);
    CPPUNIT_ASSERT_EQUAL(std::string("octo@example.org"), identity.email);
    CPPUNIT_ASSERT(identity.email_verified);
    CPPUNIT_ASSERT_EQUAL(std::string("The Octocat"), identity.display_name);
    CPPUNIT_ASSERT_EQUAL(std::string("https://avatars.example/u/583231"), identity.avatar_url);

    const auto requests = host_->http_client.requests();
    CPPUNIT_ASSERT_EQUAL(std::size_t{3}, requests.size());
    CPPUNIT_ASSERT_EQUAL(std::string("https://idp-b.test/login/oauth/access_token"),
                         requests[0].url);
    CPPUNIT_ASSERT_EQUAL(std::string("application/json"),
                         field(requests[0].headers, "Accept").value());
    CPPUNIT_ASSERT(requests[0].body.find("client_id=client-b&client_secret=secret-b") !=
                   std::string::npos);
    CPPUNIT_ASSERT_EQUAL(std::string("https://api.idp-b.test/user"), requests[1].url);
    CPPUNIT_ASSERT_EQUAL(std::string("https://api.idp-b.test/user/emails?per_page=100"),
                         requests[2].url);
    for (std::size_t i = 1; i < 3; ++i) {
      CPPUNIT_ASSERT_EQUAL(std::string("Bearer gho_x"),
                           field(requests[i].headers, "Authorization").value());
    }
    // Without a name the login is the display name.
    setUp();
    useIdpB();
    host_->http_client.on("https://idp-b.test/login/oauth/access_token",
                          answer(200, R"({"access_token":"gho_x"})"));
    host_->http_client.on("https://api.idp-b.test/user",
                          answer(200, R"({"id":9,"login":"octocat","name":null})"));
    host_->http_client.on(
        "https://api.idp-b.test/user/emails",
        answer(200, R"([{"email":"o@example.org","primary":true,"verified":true}])"));
    OAuth2Provider again(*host_);
    CPPUNIT_ASSERT_EQUAL(std::string("octocat"),
                         again.complete(ctx, callback(), kCallback, flow()).display_name);
  }

  void idpBUnverifiedPrimaryIsRefused() {
    const std::vector<std::string> lists = {
        R"([{"email":"octo@example.org","primary":true,"verified":false},)"
        R"({"email":"other@example.org","primary":false,"verified":true}])",
        R"([{"email":"other@example.org","primary":false,"verified":true}])",
        R"([])",
        R"([{"email":"octo@example.org","primary":true}])",
        R"([{"email":"octo@example.org","primary":true,"verified":"true"}])",
        R"([{"email":"octo@example.org","primary":"true","verified":true}])",
        R"([{"primary":true,"verified":true}])",
        R"([{"email":"not an address","primary":true,"verified":true}])",
    };
    for (const auto& emails : lists) {
      setUp();
      useIdpB();
      scriptIdpB(emails);
      OAuth2Provider provider(*host_);
      assertRefused(provider.complete(context(), callback(), kCallback, flow()),
                    "email_unverified");
    }
  }

  void idpBHostileAnswers() {
    struct Case {
      std::string user;
      std::string emails;
    };
    const std::string goodEmails = R"([{"email":"o@example.org","primary":true,"verified":true}])";
    const std::vector<Case> cases = {
        {"[]", goodEmails},
        {R"({"id":"583231"})", goodEmails},
        {R"({"id":-1})", goodEmails},
        {R"({"id":0})", goodEmails},
        {R"({"id":1.5})", goodEmails},
        {R"({"id":true})", goodEmails},
        {R"({"id":99999999999999999999999})", goodEmails},
        {R"({"login":"x"})", goodEmails},
        {kUser, R"({"email":"o@example.org","primary":true,"verified":true})"},
        {kUser, R"([1,2,3])"},
        {kUser, R"([{"email":"a@example.org","primary":true,"verified":true},)"
                R"({"email":"b@example.org","primary":true,"verified":true}])"},
        {kUser, deepJson(100000)},
        {kUser, "not json"},
    };
    for (const auto& c : cases) {
      setUp();
      useIdpB();
      scriptIdpB(c.emails);
      host_->http_client.on("https://api.idp-b.test/user", answer(200, c.user));
      OAuth2Provider provider(*host_);
      assertRefused(provider.complete(context(), callback(), kCallback, flow()), "provider_error");
    }
  }

  void everyUpstreamCallIsBounded() {
    useIdpB();
    scriptIdpB(R"([{"email":"o@example.org","primary":true,"verified":true}])");
    OAuth2Provider provider(*host_);
    CPPUNIT_ASSERT(provider.complete(context(), callback(), kCallback, flow()).status.isOk());
    for (const auto& request : host_->http_client.requests()) {
      CPPUNIT_ASSERT(request.timeout.count() > 0 && request.timeout.count() <= 30000);
      CPPUNIT_ASSERT(request.max_body_bytes > 0 && request.max_body_bytes <= 1024 * 1024);
    }
  }

  void secretsNeverReachTheLog() {
    host_->http_client.on("https://idp-a.test/token", answer(400, R"({"error":"invalid_client"})"));
    const auto identity = completeWith(callback("the-code"));
    assertRefused(identity, "provider_error");
    const std::string message = identity.status.message();
    CPPUNIT_ASSERT(message.find("invalid_client") != std::string::npos);
    for (const std::string& secret :
         std::vector<std::string>{"s3cret", "the-code", kVerifier.c_str(), kState.c_str()}) {
      CPPUNIT_ASSERT(message.find(secret) == std::string::npos);
      for (const auto& line : host_->lines)
        CPPUNIT_ASSERT(line.second.find(secret) == std::string::npos);
    }
  }

 private:
  std::unique_ptr<MockHost> host_;
};

CPPUNIT_TEST_SUITE_REGISTRATION(OAuth2ProviderTest);
