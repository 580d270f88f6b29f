// HostImpl: what one plugin instance sees of the daemon.

#include "PluginTestSupport.hpp"
#include "common/Log.hpp"
#include "common/RandomToken.hpp"
#include "plugin/HostImpl.hpp"

#include <cppunit/extensions/HelperMacros.h>

#include <chrono>
#include <cstdlib>
#include <set>
#include <string>

// Fixtures live in the global namespace: the suite name must equal the file name.
using namespace skinpulse;

namespace {

constexpr std::int64_t kNowMillis = 1'700'000'000'123;

bool isBase64UrlChar(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' ||
         c == '_';
}

std::string encode(const std::string& bytes) {
  return common::base64UrlNoPadding(reinterpret_cast<const unsigned char*>(bytes.data()),
                                    bytes.size());
}

}  // namespace

class HostImplTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(HostImplTest);
  CPPUNIT_TEST(testInstanceNameAndConfig);
  CPPUNIT_TEST(testServicesArePassedThrough);
  CPPUNIT_TEST(testDefaultClockIsTheSystemClock);
  CPPUNIT_TEST(testRandomTokenLengthAndCharset);
  CPPUNIT_TEST(testRandomTokensAreUnique);
  CPPUNIT_TEST(testBase64UrlVectors);
  CPPUNIT_TEST(testLoggerPrefixAndLevels);
  CPPUNIT_TEST_SUITE_END();

 public:
  void testInstanceNameAndConfig() {
    plugin::HostImpl host(plugin::PluginKind::kSource, "steam",
                          {{"url", "https://x.test/"}, {"currency", "EUR"}}, services_);
    CPPUNIT_ASSERT_EQUAL(std::string("steam"), host.instanceName());
    CPPUNIT_ASSERT(host.kind() == plugin::PluginKind::kSource);
    CPPUNIT_ASSERT_EQUAL(std::string("https://x.test/"), host.config().get("url").value_or(""));
    CPPUNIT_ASSERT(!host.config().get("missing").has_value());
    CPPUNIT_ASSERT_EQUAL(std::string("fallback"), host.config().getString("missing", "fallback"));
    CPPUNIT_ASSERT(host.config().keys() == (std::vector<std::string>{"currency", "url"}));
  }

  void testServicesArePassedThrough() {
    plugin::HostImpl host(plugin::PluginKind::kIdentity, "idp-a", {}, services_);
    CPPUNIT_ASSERT(&host.http() == static_cast<sdk::HttpClient*>(&http_));
    CPPUNIT_ASSERT(&host.catalog() == static_cast<const sdk::Catalog*>(&catalog_));
    CPPUNIT_ASSERT_EQUAL(kNowMillis, host.clock().nowUnixMillis());
    CPPUNIT_ASSERT_EQUAL(kNowMillis / 1000, host.clock().nowUnixSeconds());
    sdk::HttpRequest request;
    request.url = "https://idp.test/token";
    CPPUNIT_ASSERT_EQUAL(200, host.http().send(request).status);
    CPPUNIT_ASSERT_EQUAL(std::string("https://idp.test/token"), http_.requests().at(0).url);
  }

  void testDefaultClockIsTheSystemClock() {
    plugin::HostImpl host(plugin::PluginKind::kMetric, "range", {},
                          plugin::HostServices{http_, catalog_});
    const auto now = std::chrono::duration_cast<std::chrono::milliseconds>(
                         std::chrono::system_clock::now().time_since_epoch())
                         .count();
    CPPUNIT_ASSERT(std::llabs(host.clock().nowUnixMillis() - now) < 5000);
  }

  void testRandomTokenLengthAndCharset() {
    plugin::HostImpl host(plugin::PluginKind::kIdentity, "idp-a", {}, services_);
    for (std::size_t bytes : {0, 1, 2, 3, 4, 16, 32, 33, 64}) {
      const std::string token = host.randomToken(bytes);
      CPPUNIT_ASSERT_EQUAL_MESSAGE(std::to_string(bytes), (bytes * 4 + 2) / 3, token.size());
      for (char c : token) {
        CPPUNIT_ASSERT_MESSAGE(token, isBase64UrlChar(c));
      }
    }
  }

  void testRandomTokensAreUnique() {
    plugin::HostImpl host(plugin::PluginKind::kIdentity, "idp-a", {}, services_);
    std::set<std::string> seen;
    for (int i = 0; i < 2000; ++i) seen.insert(host.randomToken(16));
    CPPUNIT_ASSERT_EQUAL(std::size_t{2000}, seen.size());
    // Not constant per position either: every character of the alphabet shows up.
    std::set<char> chars;
    for (const std::string& token : seen) chars.insert(token.begin(), token.end());
    CPPUNIT_ASSERT_EQUAL(std::size_t{64}, chars.size());
  }

  void testBase64UrlVectors() {
    // RFC 4648 §10, without padding, and the two characters that differ from base64.
    CPPUNIT_ASSERT_EQUAL(std::string(""), encode(""));
    CPPUNIT_ASSERT_EQUAL(std::string("Zg"), encode("f"));
    CPPUNIT_ASSERT_EQUAL(std::string("Zm8"), encode("fo"));
    CPPUNIT_ASSERT_EQUAL(std::string("Zm9v"), encode("foo"));
    CPPUNIT_ASSERT_EQUAL(std::string("Zm9vYg"), encode("foob"));
    CPPUNIT_ASSERT_EQUAL(std::string("Zm9vYmE"), encode("fooba"));
    CPPUNIT_ASSERT_EQUAL(std::string("Zm9vYmFy"), encode("foobar"));
    CPPUNIT_ASSERT_EQUAL(std::string("-_8"), encode("\xfb\xff"));
  }

  void testLoggerPrefixAndLevels() {
    plugin::HostImpl host(plugin::PluginKind::kSource, "inst-a", {}, services_);
    test::LogCapture capture(log::plugin());
    host.logger().info("fetched 12 items");
    host.logger().warn("upstream slow");
    host.logger().error("upstream down");
    CPPUNIT_ASSERT_EQUAL(1, capture.countLines("info|source.inst-a: fetched 12 items"));
    CPPUNIT_ASSERT_EQUAL(1, capture.countLines("warning|source.inst-a: upstream slow"));
    CPPUNIT_ASSERT_EQUAL(1, capture.countLines("error|source.inst-a: upstream down"));
  }

 private:
  test::FakeHttpClient http_;
  test::FakeCatalog catalog_;
  test::FixedClock clock_{kNowMillis};
  plugin::HostServices services_{http_, catalog_, clock_};
};

CPPUNIT_TEST_SUITE_REGISTRATION(HostImplTest);
