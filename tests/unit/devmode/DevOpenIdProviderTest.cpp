#include "skinpulse/sdk/url_encoding.hpp"

#include "devmode/DevOpenIdProvider.hpp"
#include "http/HttpError.hpp"

#include <cppunit/extensions/HelperMacros.h>

#include <string>

using skinpulse::devmode::DevOpenIdProvider;
using skinpulse::devmode::kOpenIdNamespace;
namespace sdk = skinpulse::sdk;

namespace {

const std::string kEndpoint = "http://127.0.0.1:8080/dev/openid";
const std::string kReturnTo = "http://127.0.0.1:8080/api/v1/auth/gameid/login/callback?state=abc";

DevOpenIdProvider provider(const std::string& key = std::string(32, 'k')) {
  return DevOpenIdProvider(kEndpoint, "http://127.0.0.1:8080", "127.0.0.1:8080",
                           "76561197960287930", key);
}

sdk::Fields checkidSetup(const std::string& return_to = kReturnTo) {
  const std::string select = "http://specs.openid.net/auth/2.0/identifier_select";
  return {{"openid.ns", kOpenIdNamespace}, {"openid.mode", "checkid_setup"},
          {"openid.return_to", return_to}, {"openid.realm", "http://127.0.0.1:8080/"},
          {"openid.identity", select},     {"openid.claimed_id", select}};
}

// The assertion's fields as the relying party receives them, mode switched for the POST.
sdk::Fields assertionFields(const std::string& location) {
  const auto query = location.substr(location.find('?') + 1);
  auto fields = sdk::parseQuery(query).value();
  sdk::Fields openid;
  for (auto& [key, value] : fields) {
    if (key.rfind("openid.", 0) != 0) continue;
    openid.emplace_back(key, key == "openid.mode" ? "check_authentication" : value);
  }
  return openid;
}

std::string get(const sdk::Fields& fields, const std::string& name) {
  for (const auto& [key, value] : fields) {
    if (key == name) return value;
  }
  return "";
}

}  // namespace

class DevOpenIdProviderTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(DevOpenIdProviderTest);
  CPPUNIT_TEST(assertsThePlayerBackToReturnTo);
  CPPUNIT_TEST(verifiesOncePerNonce);
  CPPUNIT_TEST(refusesTamperedFields);
  CPPUNIT_TEST(refusesAnotherKeysSignature);
  CPPUNIT_TEST(refusesBadCheckidSetup);
  CPPUNIT_TEST(assertsTheSecondAccountWhenAsked);
  CPPUNIT_TEST_SUITE_END();

 public:
  void assertsTheSecondAccountWhenAsked() {
    auto p = provider();
    const std::string location =
        p.positiveAssertion(checkidSetup(), 1764300000, "0c0d", "76561197960287931");
    const auto fields = sdk::parseQuery(location.substr(location.find('?') + 1)).value();
    const std::string claimed = "https://127.0.0.1:8080/openid/id/76561197960287931";
    CPPUNIT_ASSERT_EQUAL(claimed, get(fields, "openid.claimed_id"));
    CPPUNIT_ASSERT_EQUAL(claimed, get(fields, "openid.identity"));
    // Signed like any other assertion: the relying party's check verifies it once.
    CPPUNIT_ASSERT(p.verify(assertionFields(location)));
    CPPUNIT_ASSERT(!p.verify(assertionFields(location)));
    // The same request checks apply.
    CPPUNIT_ASSERT_THROW(p.positiveAssertion(checkidSetup("https://evil.example/cb"), 1764300000,
                                             "0e0f", "76561197960287931"),
                         skinpulse::http::HttpError);
  }

  void assertsThePlayerBackToReturnTo() {
    const auto p = provider();
    const std::string location = p.positiveAssertion(checkidSetup(), 1764300000, "0a1b");
    CPPUNIT_ASSERT(location.rfind(kReturnTo + "&openid.ns=", 0) == 0);
    const auto fields = sdk::parseQuery(location.substr(location.find('?') + 1)).value();
    CPPUNIT_ASSERT_EQUAL(std::string("abc"), get(fields, "state"));
    CPPUNIT_ASSERT_EQUAL(std::string("id_res"), get(fields, "openid.mode"));
    CPPUNIT_ASSERT_EQUAL(kEndpoint, get(fields, "openid.op_endpoint"));
    CPPUNIT_ASSERT_EQUAL(kReturnTo, get(fields, "openid.return_to"));
    const std::string claimed = "https://127.0.0.1:8080/openid/id/76561197960287930";
    CPPUNIT_ASSERT_EQUAL(claimed, get(fields, "openid.claimed_id"));
    CPPUNIT_ASSERT_EQUAL(claimed, get(fields, "openid.identity"));
    CPPUNIT_ASSERT_EQUAL(std::string("2025-11-28T03:20:00Z0a1b"),
                         get(fields, "openid.response_nonce"));
    CPPUNIT_ASSERT_EQUAL(
        std::string("signed,op_endpoint,claimed_id,identity,return_to,response_nonce,assoc_handle"),
        get(fields, "openid.signed"));
    CPPUNIT_ASSERT_EQUAL(std::size_t(44), get(fields, "openid.sig").size());  // SHA-256, base64
  }

  void verifiesOncePerNonce() {
    auto p = provider();
    const auto form = assertionFields(p.positiveAssertion(checkidSetup(), 1764300000, "n1"));
    CPPUNIT_ASSERT(p.verify(form));
    CPPUNIT_ASSERT(!p.verify(form));  // a replayed assertion
    const auto other = assertionFields(p.positiveAssertion(checkidSetup(), 1764300000, "n2"));
    CPPUNIT_ASSERT(p.verify(other));
    CPPUNIT_ASSERT_EQUAL(std::string("ns:http://specs.openid.net/auth/2.0\nis_valid:true\n"),
                         DevOpenIdProvider::verificationAnswer(true));
    CPPUNIT_ASSERT_EQUAL(std::string("ns:http://specs.openid.net/auth/2.0\nis_valid:false\n"),
                         DevOpenIdProvider::verificationAnswer(false));
  }

  void refusesTamperedFields() {
    auto p = provider();
    const auto form = assertionFields(p.positiveAssertion(checkidSetup(), 1764300000, "n1"));
    for (const std::string name : {"openid.claimed_id", "openid.return_to", "openid.op_endpoint",
                                   "openid.response_nonce", "openid.sig"}) {
      auto changed = form;
      for (auto& [key, value] : changed) {
        if (key == name) value += "9";
      }
      CPPUNIT_ASSERT_MESSAGE(name, !p.verify(changed));
    }
    auto mode = form;
    for (auto& [key, value] : mode) {
      if (key == "openid.mode") value = "id_res";
    }
    CPPUNIT_ASSERT(!p.verify(mode));
    auto fewer = form;
    for (auto& [key, value] : fewer) {
      if (key == "openid.signed") value = "signed,claimed_id";
    }
    CPPUNIT_ASSERT(!p.verify(fewer));
    auto repeated = form;
    repeated.emplace_back("openid.claimed_id",
                          "https://127.0.0.1:8080/openid/id/76561197960287931");
    CPPUNIT_ASSERT(!p.verify(repeated));
    CPPUNIT_ASSERT(p.verify(form));  // the untouched assertion still verifies, once
  }

  void refusesAnotherKeysSignature() {
    auto mine = provider(std::string(32, 'a'));
    const auto theirs = provider(std::string(32, 'b'));
    const auto form = assertionFields(theirs.positiveAssertion(checkidSetup(), 1764300000, "n"));
    CPPUNIT_ASSERT(!mine.verify(form));
  }

  void refusesBadCheckidSetup() {
    const auto p = provider();
    auto expectRefused = [&](const sdk::Fields& query) {
      try {
        p.positiveAssertion(query, 1764300000, "n");
        CPPUNIT_FAIL("accepted");
      } catch (const skinpulse::http::HttpError& e) {
        CPPUNIT_ASSERT_EQUAL(400, e.status());
      }
    };
    // Never an open redirect: return_to must lie under BASE_URL.
    expectRefused(checkidSetup("https://evil.example/callback"));
    expectRefused(checkidSetup("http://127.0.0.1:8080.evil.example/x"));
    auto mode = checkidSetup();
    mode[1].second = "checkid_immediate";
    expectRefused(mode);
    auto ns = checkidSetup();
    ns[0].second = "http://openid.net/signon/1.1";
    expectRefused(ns);
    auto twice = checkidSetup();
    twice.emplace_back("openid.return_to", "http://127.0.0.1:8080/other");
    expectRefused(twice);
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(DevOpenIdProviderTest);
