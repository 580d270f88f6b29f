#include "skinpulse/sdk/url_encoding.hpp"

#include "IdentityTestSupport.hpp"
#include "OpenId2Provider.hpp"
#include "UrlParts.hpp"

#include <cppunit/extensions/HelperMacros.h>

#include <memory>
#include <stdexcept>
#include <vector>

using identity_test::answer;
using identity_test::field;
using identity_test::fixture;
using skinpulse::plugins::identity::splitUrl;
using skinpulse::plugins::openid2::OpenId2Provider;
using skinpulse::sdk::encodeQuery;
using skinpulse::sdk::Fields;
using skinpulse::sdk::HttpResponse;
using skinpulse::sdk::LoginContext;
using skinpulse::sdk::LogLevel;
using skinpulse::sdk::parseQuery;
using skinpulse::sdk::Status;
using skinpulse::sdk::VerifiedIdentity;
using skinpulse::test::MockHost;
using skinpulse::test::MockHttp;

namespace {

const std::string kOp = "https://steamcommunity.com/openid/login";
const std::string kBase = "https://skins.example";
const std::string kCallback = kBase + "/api/v1/auth/gameid/login/callback";
const std::string kState = "S7aTe-0123456789abcdefghijklmnopqrstuvwxyzA";
const std::string kReturnTo = kCallback + "?state=" + kState;
const std::string kId = "76561197972494985";
const std::string kClaimed = "https://steamcommunity.com/openid/id/" + kId;
const std::string kNonce = "2026-11-22T10:14:30Zq8Xb+/=";  // MockHost's now is 10:15:00Z
const std::string kValid = "ns:http://specs.openid.net/auth/2.0\nis_valid:true\n";

}  // namespace

class OpenId2ProviderTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(OpenId2ProviderTest);
  CPPUNIT_TEST(beginSendsCheckidSetupWithIdentifierSelect);
  CPPUNIT_TEST(beginRefusesACallbackOutsideTheRealm);
  CPPUNIT_TEST(refusesBadConfiguration);
  CPPUNIT_TEST(acceptsAVerifiedAssertion);
  CPPUNIT_TEST(checkAuthenticationEchoesEveryFieldByteForByte);
  CPPUNIT_TEST(stateMismatch);
  CPPUNIT_TEST(modeOtherThanIdRes);
  CPPUNIT_TEST(namespaceAndOpEndpointMustMatch);
  CPPUNIT_TEST(returnToMustBeTheIssuedAndCalledUrl);
  CPPUNIT_TEST(claimedIdViolations);
  CPPUNIT_TEST(signedListMustCoverTheTrustedFields);
  CPPUNIT_TEST(nonceMustBeWellFormedAndFresh);
  CPPUNIT_TEST(repeatedOpenIdParameterIsRefused);
  CPPUNIT_TEST(opMustConfirmWithIsValidTrue);
  CPPUNIT_TEST(unreachableOpIsProviderError);
  CPPUNIT_TEST(profileFromWebApiWhenKeyIsSet);
  CPPUNIT_TEST(profileFailureDoesNotFailLogin);
  CPPUNIT_TEST_SUITE_END();

 public:
  void setUp() override {
    host_ = std::make_unique<MockHost>();
    host_->settings = {{"openid_url", kOp},
                       {"host", "steamcommunity.com"},
                       {"api_url", "https://api.steampowered.com"},
                       {"api_key", ""}};
    host_->http_client.on(kOp, answer(200, kValid));
  }

  LoginContext context() const { return LoginContext{kCallback, kBase}; }
  Fields flow() const { return {{"state", kState}, {"return_to", kReturnTo}}; }

  // A positive assertion as the game platform sends it (docs/upstreams.md §e.2).
  Fields assertion() const {
    return {{"state", kState},
            {"openid.ns", "http://specs.openid.net/auth/2.0"},
            {"openid.mode", "id_res"},
            {"openid.op_endpoint", kOp},
            {"openid.claimed_id", kClaimed},
            {"openid.identity", kClaimed},
            {"openid.return_to", kReturnTo},
            {"openid.response_nonce", kNonce},
            {"openid.assoc_handle", "1234567890"},
            {"openid.signed",
             "signed,op_endpoint,claimed_id,identity,return_to,response_nonce,assoc_handle"},
            {"openid.sig", "W0u5DRbtHE1GG0ZKXjerUZDUGmc="}};
  }

  // The URL the browser called: return_to plus the openid.* parameters, as an OP builds it.
  static std::string calledUrl(const Fields& params) {
    Fields openid;
    for (const auto& f : params) {
      if (f.first.rfind("openid.", 0) == 0) openid.push_back(f);
    }
    return kReturnTo + "&" + encodeQuery(openid);
  }

  static void set(Fields& params, const std::string& name, const std::string& value) {
    for (auto& f : params) {
      if (f.first == name) f.second = value;
    }
  }
  static void erase(Fields& params, const std::string& name) {
    Fields kept;
    for (auto& f : params) {
      if (f.first != name) kept.push_back(f);
    }
    params = kept;
  }

  VerifiedIdentity completeWith(const Fields& params) {
    return completeWith(params, calledUrl(params));
  }
  VerifiedIdentity completeWith(const Fields& params, const std::string& called) {
    OpenId2Provider provider(*host_);
    return provider.complete(context(), params, called, flow());
  }

  std::size_t verificationCalls() const {
    std::size_t count = 0;
    for (const auto& r : host_->http_client.requests()) count += r.url == kOp ? 1 : 0;
    return count;
  }

  void assertRefused(const VerifiedIdentity& identity, const std::string& code,
                     bool op_asked = false) {
    CPPUNIT_ASSERT_MESSAGE(identity.status.message(), !identity.status.isOk());
    CPPUNIT_ASSERT_EQUAL_MESSAGE(identity.status.message(), code, identity.error_code);
    CPPUNIT_ASSERT(identity.subject.empty());
    CPPUNIT_ASSERT(identity.replay_key.empty());
    CPPUNIT_ASSERT_EQUAL(std::size_t{op_asked ? 1u : 0u}, verificationCalls());
  }

  void beginSendsCheckidSetupWithIdentifierSelect() {
    host_->random_tokens = {kState};
    OpenId2Provider provider(*host_);
    const auto start = provider.begin(context());
    CPPUNIT_ASSERT(start.status.isOk());
    const auto url = splitUrl(start.redirect_url);
    CPPUNIT_ASSERT_EQUAL(kOp, url.base);
    const Fields expected = {
        {"openid.ns", "http://specs.openid.net/auth/2.0"},
        {"openid.mode", "checkid_setup"},
        {"openid.return_to", kReturnTo},
        {"openid.realm", kBase + "/"},
        {"openid.identity", "http://specs.openid.net/auth/2.0/identifier_select"},
        {"openid.claimed_id", "http://specs.openid.net/auth/2.0/identifier_select"}};
    CPPUNIT_ASSERT(expected == parseQuery(url.query).value());
    CPPUNIT_ASSERT(flow() == start.flow);
    CPPUNIT_ASSERT(host_->http_client.requests().empty());
  }

  void beginRefusesACallbackOutsideTheRealm() {
    OpenId2Provider provider(*host_);
    const auto start = provider.begin(LoginContext{"https://elsewhere.example/cb", kBase});
    CPPUNIT_ASSERT(start.status.code() == Status::Code::kInvalidConfig);
    CPPUNIT_ASSERT(start.redirect_url.empty());
    const auto withQuery = provider.begin(LoginContext{kCallback + "?x=1", kBase});
    CPPUNIT_ASSERT(!withQuery.status.isOk());
  }

  void refusesBadConfiguration() {
    const auto settings = host_->settings;
    host_->settings.erase("openid_url");
    CPPUNIT_ASSERT_THROW(OpenId2Provider p(*host_), std::invalid_argument);
    host_->settings = settings;
    host_->settings["host"] = "";
    CPPUNIT_ASSERT_THROW(OpenId2Provider p(*host_), std::invalid_argument);
    host_->settings["host"] = "evil.example/steamcommunity.com";
    CPPUNIT_ASSERT_THROW(OpenId2Provider p(*host_), std::invalid_argument);
    host_->settings = settings;
    host_->settings["api_key"] = "KEY";
    host_->settings["api_url"] = "not a url";
    CPPUNIT_ASSERT_THROW(OpenId2Provider p(*host_), std::invalid_argument);
  }

  void acceptsAVerifiedAssertion() {
    const auto identity = completeWith(assertion());
    CPPUNIT_ASSERT_MESSAGE(identity.status.message(), identity.status.isOk());
    CPPUNIT_ASSERT_EQUAL(kId, identity.subject);
    CPPUNIT_ASSERT_EQUAL(kNonce, identity.replay_key);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{600}, identity.replay_window_seconds);
    CPPUNIT_ASSERT(identity.email.empty());
    CPPUNIT_ASSERT(!identity.email_verified);
    CPPUNIT_ASSERT_EQUAL(std::size_t{1}, verificationCalls());
    // Without GAMEID_API_KEY the Web API is never called.
    CPPUNIT_ASSERT_EQUAL(std::size_t{1}, host_->http_client.requests().size());
  }

  void checkAuthenticationEchoesEveryFieldByteForByte() {
    // A generic OP signs more than the game platform: extension fields, odd characters.
    Fields params = assertion();
    params.emplace_back("openid.ns.sreg", "http://openid.net/extensions/sreg/1.1");
    params.emplace_back("openid.sreg.nickname", "a b+c&d=e%f/\xC3\xA9");
    set(params, "openid.signed",
        "op_endpoint,claimed_id,identity,return_to,response_nonce,assoc_handle,ns.sreg,"
        "sreg.nickname");
    params.emplace_back("unrelated", "not echoed");
    CPPUNIT_ASSERT(completeWith(params).status.isOk());
    const auto request = host_->http_client.requests().at(0);
    CPPUNIT_ASSERT_EQUAL(std::string("POST"), request.method);
    CPPUNIT_ASSERT_EQUAL(kOp, request.url);
    CPPUNIT_ASSERT_EQUAL(std::string("application/x-www-form-urlencoded"),
                         field(request.headers, "Content-Type").value());
    const std::string expected =
        "openid.ns=http%3A%2F%2Fspecs.openid.net%2Fauth%2F2.0"
        "&openid.mode=check_authentication"
        "&openid.op_endpoint=https%3A%2F%2Fsteamcommunity.com%2Fopenid%2Flogin"
        "&openid.claimed_id=https%3A%2F%2Fsteamcommunity.com%2Fopenid%2Fid%2F76561197972494985"
        "&openid.identity=https%3A%2F%2Fsteamcommunity.com%2Fopenid%2Fid%2F76561197972494985"
        "&openid.return_to=https%3A%2F%2Fskins.example%2Fapi%2Fv1%2Fauth%2Fgameid%2Flogin%2F"
        "callback%3Fstate%3DS7aTe-0123456789abcdefghijklmnopqrstuvwxyzA"
        "&openid.response_nonce=2026-11-22T10%3A14%3A30Zq8Xb%2B%2F%3D"
        "&openid.assoc_handle=1234567890"
        "&openid.signed=op_endpoint%2Cclaimed_id%2Cidentity%2Creturn_to%2Cresponse_nonce%2C"
        "assoc_handle%2Cns.sreg%2Csreg.nickname"
        "&openid.sig=W0u5DRbtHE1GG0ZKXjerUZDUGmc%3D"
        "&openid.ns.sreg=http%3A%2F%2Fopenid.net%2Fextensions%2Fsreg%2F1.1"
        "&openid.sreg.nickname=a%20b%2Bc%26d%3De%25f%2F%C3%A9";
    CPPUNIT_ASSERT_EQUAL(expected, request.body);
    // Decoding the body gives back exactly the assertion's openid.* fields, mode changed.
    Fields echoed = params;
    erase(echoed, "state");
    erase(echoed, "unrelated");
    set(echoed, "openid.mode", "check_authentication");
    CPPUNIT_ASSERT(echoed == parseQuery(request.body).value());
    CPPUNIT_ASSERT(request.timeout.count() > 0 && request.max_body_bytes <= 64 * 1024);
  }

  void stateMismatch() {
    Fields noState = assertion();
    erase(noState, "state");
    assertRefused(completeWith(noState), "state_mismatch");
    Fields wrong = assertion();
    set(wrong, "state", kState + "x");
    assertRefused(completeWith(wrong), "state_mismatch");
    Fields twice = assertion();
    twice.emplace_back("state", kState);
    assertRefused(completeWith(twice), "state_mismatch");
    OpenId2Provider provider(*host_);
    assertRefused(provider.complete(context(), assertion(), calledUrl(assertion()), {}),
                  "state_mismatch");
  }

  void modeOtherThanIdRes() {
    for (const std::string& mode : std::vector<std::string>{"cancel", "error"}) {
      Fields params = assertion();
      set(params, "openid.mode", mode);
      assertRefused(completeWith(params), "provider_error");
    }
    for (const std::string& mode :
         std::vector<std::string>{"", "ID_RES", "setup_needed", "check_authentication"}) {
      Fields params = assertion();
      set(params, "openid.mode", mode);
      assertRefused(completeWith(params), "verification_failed");
    }
    Fields missing = assertion();
    erase(missing, "openid.mode");
    assertRefused(completeWith(missing), "verification_failed");
  }

  void namespaceAndOpEndpointMustMatch() {
    for (const std::string& ns : std::vector<std::string>{"http://openid.net/signon/1.1", "",
                                                          "http://specs.openid.net/auth/2.0/"}) {
      Fields params = assertion();
      set(params, "openid.ns", ns);
      assertRefused(completeWith(params), "verification_failed");
    }
    for (const std::string& op : std::vector<std::string>{
             "https://evil.example/openid/login", "https://steamcommunity.com/openid/login/",
             "http://steamcommunity.com/openid/login", "https://steamcommunity.com/openid/login?x",
             "https://steamcommunity.com.evil.example/openid/login", ""}) {
      Fields params = assertion();
      set(params, "openid.op_endpoint", op);
      assertRefused(completeWith(params), "verification_failed");
    }
  }

  void returnToMustBeTheIssuedAndCalledUrl() {
    // return_to of another flow, or pointing elsewhere.
    for (const std::string& returnTo : std::vector<std::string>{
             kCallback + "?state=other", kCallback, "https://evil.example/cb?state=" + kState,
             kCallback + "?state=" + kState + "&x=1",
             kBase + "/api/v1/auth/gameid/callback?state=" + kState}) {
      Fields params = assertion();
      set(params, "openid.return_to", returnTo);
      assertRefused(completeWith(params), "verification_failed");
    }
    // The URL actually called must be return_to plus openid.* parameters only.
    const Fields params = assertion();
    const std::string good = calledUrl(params);
    CPPUNIT_ASSERT(completeWith(params, good).status.isOk());
    host_ = std::make_unique<MockHost>();
    setUp();
    for (const std::string& called : std::vector<std::string>{
             good + "&extra=1",
             "https://evil.example/api/v1/auth/gameid/login/callback?state=" + kState +
                 "&openid.mode=id_res",
             kBase + "/api/v1/auth/gameid/callback?state=" + kState, good + "#frag",
             std::string(""), kCallback + "?state=other&" + good.substr(kReturnTo.size() + 1),
             good + "&state=" + kState}) {
      assertRefused(completeWith(params, called), "verification_failed");
    }
    // A return_to outside the realm is refused even if issued (e.g. BASE_URL changed).
    OpenId2Provider provider(*host_);
    const LoginContext otherRealm{kCallback, "https://other.example"};
    assertRefused(provider.complete(otherRealm, params, good, flow()), "verification_failed");
  }

  void claimedIdViolations() {
    const std::vector<std::string> bad = {
        "http://steamcommunity.com/openid/id/" + kId,
        "https://steamcommunity.com.evil.example/openid/id/" + kId,
        "https://evil.example/openid/id/" + kId,
        "https://steamcommunity.com/openid/id/" + kId + "/",
        "https://steamcommunity.com/openid/id/" + kId.substr(1),
        "https://steamcommunity.com/openid/id/7656119797249498x",
        "https://steamcommunity.com/openid/id/%37" + kId.substr(1),
        "https://steamcommunity.com:443/openid/id/" + kId,
        "https://user@steamcommunity.com/openid/id/" + kId,
        "https://steamcommunity.com/openid/id/" + kId + "?a=b",
        "https://steamcommunity.com/openid/id/76561197960265728",
    };
    for (const auto& claimed : bad) {
      Fields params = assertion();
      set(params, "openid.claimed_id", claimed);
      set(params, "openid.identity", claimed);
      assertRefused(completeWith(params), "invalid_claimed_id");
    }
    // claimed_id and identity must agree.
    Fields split = assertion();
    set(split, "openid.identity", "https://steamcommunity.com/openid/id/76561197960265729");
    assertRefused(completeWith(split), "invalid_claimed_id");
    Fields missing = assertion();
    erase(missing, "openid.claimed_id");
    assertRefused(completeWith(missing), "invalid_claimed_id");
  }

  void signedListMustCoverTheTrustedFields() {
    for (const std::string& left_out :
         std::vector<std::string>{"op_endpoint", "claimed_id", "identity", "return_to",
                                  "response_nonce", "assoc_handle"}) {
      std::string list =
          "signed,op_endpoint,claimed_id,identity,return_to,response_nonce,assoc_handle";
      const auto at = list.find("," + left_out);
      list.erase(at, left_out.size() + 1);
      Fields params = assertion();
      set(params, "openid.signed", list);
      assertRefused(completeWith(params), "verification_failed");
    }
    Fields noSig = assertion();
    erase(noSig, "openid.sig");
    assertRefused(completeWith(noSig), "verification_failed");
    Fields noHandle = assertion();
    set(noHandle, "openid.assoc_handle", "");
    assertRefused(completeWith(noHandle), "verification_failed");
  }

  void nonceMustBeWellFormedAndFresh() {
    for (const std::string& nonce : std::vector<std::string>{
             "", "2026-11-22T10:09:59Zold", "2026-11-22T10:16:01Zfuture",
             "2026-01-01T00:00:00ZUNIQUE", "garbage", "2026-11-22T10:14:30Z has space",
             "2026-11-22T10:14:30Z" + std::string(300, 'x')}) {
      Fields params = assertion();
      set(params, "openid.response_nonce", nonce);
      assertRefused(completeWith(params), "verification_failed");
    }
  }

  void repeatedOpenIdParameterIsRefused() {
    for (const std::string& name :
         std::vector<std::string>{"openid.claimed_id", "openid.mode", "openid.sig"}) {
      Fields params = assertion();
      params.emplace_back(name, identity_test::field(params, name).value());
      assertRefused(completeWith(params), "verification_failed");
    }
  }

  void opMustConfirmWithIsValidTrue() {
    for (const std::string& body : std::vector<std::string>{
             fixture("steam_openid_check_authentication_invalid.txt"), std::string(""),
             std::string("is_valid:true\n"),
             std::string("ns:http://specs.openid.net/auth/2.0\nis_valid:true:x\n")}) {
      setUp();
      host_->http_client.on(kOp, answer(200, body));
      assertRefused(completeWith(assertion()), "verification_failed", true);
    }
  }

  void unreachableOpIsProviderError() {
    const std::vector<HttpResponse> answers = {
        answer(403, kValid),
        answer(429, kValid),
        answer(500, kValid),
        answer(302, kValid),
        MockHttp::failure(HttpResponse::Error::kTimeout, "t"),
        MockHttp::failure(HttpResponse::Error::kTooLarge, "cap")};
    for (const auto& response : answers) {
      setUp();
      host_->http_client.on(kOp, response);
      assertRefused(completeWith(assertion()), "provider_error", true);
    }
  }

  void profileFromWebApiWhenKeyIsSet() {
    host_->settings["api_key"] = "WEBAPI-KEY-123";
    const std::string id = "76561198000000001";
    const std::string claimed = "https://steamcommunity.com/openid/id/" + id;
    host_->http_client.on("https://api.steampowered.com/ISteamUser/GetPlayerSummaries/v0002/",
                          answer(200, fixture("steam_getplayersummaries_synthetic.json")));
    Fields params = assertion();
    set(params, "openid.claimed_id", claimed);
    set(params, "openid.identity", claimed);
    const auto identity = completeWith(params);
    CPPUNIT_ASSERT(identity.status.isOk());
    CPPUNIT_ASSERT_EQUAL(id, identity.subject);
    CPPUNIT_ASSERT_EQUAL(std::string("example_user"), identity.display_name);
    CPPUNIT_ASSERT_EQUAL(
        std::string(
            "https://avatars.steamstatic.com/0000000000000000000000000000000000000000_full.jpg"),
        identity.avatar_url);
    const auto requests = host_->http_client.requests();
    CPPUNIT_ASSERT_EQUAL(std::size_t{2}, requests.size());
    CPPUNIT_ASSERT_EQUAL(std::string("https://api.steampowered.com/ISteamUser/GetPlayerSummaries/"
                                     "v0002/?key=WEBAPI-KEY-123&steamids=" +
                                     id),
                         requests[1].url);
    CPPUNIT_ASSERT(requests[1].timeout.count() > 0 && requests[1].max_body_bytes <= 1024 * 1024);
    // The profile lookup runs only after the OP confirmed the assertion.
    CPPUNIT_ASSERT_EQUAL(kOp, requests[0].url);
  }

  void profileFailureDoesNotFailLogin() {
    host_->settings["api_key"] = "WEBAPI-KEY-123";
    const std::string summaries =
        "https://api.steampowered.com/ISteamUser/GetPlayerSummaries/v0002/";
    for (const HttpResponse& response :
         {answer(200, fixture("steam_getplayersummaries_unknown_id.json")), answer(403, ""),
          answer(200, "{\"response\":[]}"), answer(200, identity_test::deepJson(100000)),
          MockHttp::failure(HttpResponse::Error::kTimeout, "t")}) {
      setUp();
      host_->settings["api_key"] = "WEBAPI-KEY-123";
      host_->http_client.on(summaries, response);
      const auto identity = completeWith(assertion());
      CPPUNIT_ASSERT(identity.status.isOk());
      CPPUNIT_ASSERT_EQUAL(kId, identity.subject);
      CPPUNIT_ASSERT(identity.display_name.empty());
      bool warned = false;
      for (const auto& [level, line] : host_->lines) {
        warned = warned || level == LogLevel::kWarn;
        CPPUNIT_ASSERT(line.find("WEBAPI-KEY-123") == std::string::npos);
      }
      CPPUNIT_ASSERT(warned);
    }
  }

 private:
  std::unique_ptr<MockHost> host_;
};

CPPUNIT_TEST_SUITE_REGISTRATION(OpenId2ProviderTest);
