// `user_agent`, the reserved instance key (plugin/UserAgent.hpp): checked before the
// instance is created (the error names the key), sent on every request of the instance
// that does not set its own User-Agent, on send() and stream() alike; other instances and
// an instance without the key keep the client's default.

#include "PluginTestSupport.hpp"
#include "plugin/HostImpl.hpp"
#include "plugin/InstanceConfig.hpp"
#include "plugin/PluginRegistry.hpp"
#include "plugin/UserAgent.hpp"

#include <cppunit/extensions/HelperMacros.h>

#include <optional>
#include <string>

using namespace skinpulse;

namespace {

std::optional<std::string> headerOf(const sdk::HttpRequest& request, const std::string& name) {
  for (const auto& [key, value] : request.headers) {
    if (key == name) return value;
  }
  return std::nullopt;
}

class NullSink final : public sdk::BodySink {
 public:
  bool onHead(int, const sdk::Fields&) override { return true; }
  bool onBody(const char*, std::size_t) override { return true; }
};

}  // namespace

class UserAgentTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(UserAgentTest);
  CPPUNIT_TEST(validValuesPass);
  CPPUNIT_TEST(badValuesAreNamed);
  CPPUNIT_TEST(hostSendsTheInstancesAgent);
  CPPUNIT_TEST(pluginsOwnHeaderWins);
  CPPUNIT_TEST(withoutTheKeyTheClientIsUntouched);
  CPPUNIT_TEST(registryRefusesABadValueNamingTheKey);
  CPPUNIT_TEST_SUITE_END();

  test::FakeHttpClient http_;
  test::FakeCatalog catalog_;

 public:
  void validValuesPass() {
    CPPUNIT_ASSERT(!plugin::userAgentProblem("Mozilla/5.0 (X11; Linux x86_64) skinpulse/1.4"));
    CPPUNIT_ASSERT(!plugin::userAgentProblem(std::string(256, 'a')));
  }

  void badValuesAreNamed() {
    SKINPULSE_ASSERT_CONTAINS(plugin::userAgentProblem("").value_or(""), "empty");
    SKINPULSE_ASSERT_CONTAINS(plugin::userAgentProblem(std::string(257, 'a')).value_or(""),
                              "257 bytes");
    SKINPULSE_ASSERT_CONTAINS(plugin::userAgentProblem("a\r\nX-Injected: 1").value_or(""),
                              "printable ASCII (byte 13 at offset 1)");
    SKINPULSE_ASSERT_CONTAINS(plugin::userAgentProblem("tab\there").value_or(""), "byte 9");
    SKINPULSE_ASSERT_CONTAINS(plugin::userAgentProblem("caf\xc3\xa9").value_or(""),
                              "printable ASCII");
    SKINPULSE_ASSERT_CONTAINS(plugin::userAgentProblem("del\x7f").value_or(""), "byte 127");
  }

  void hostSendsTheInstancesAgent() {
    plugin::HostImpl host(plugin::PluginKind::kSource, "dm", {},
                          plugin::HostServices{http_, catalog_}, "agent/1.0");
    sdk::HttpRequest request;
    request.url = "https://example.test/a";
    request.headers = {{"Accept", "application/json"}};
    host.http().send(request);
    NullSink sink;
    host.http().stream(request, sink);
    const auto sent = http_.requests();
    CPPUNIT_ASSERT_EQUAL(std::size_t(2), sent.size());
    for (const auto& one : sent) {
      CPPUNIT_ASSERT_EQUAL(std::string("agent/1.0"), headerOf(one, "User-Agent").value_or("-"));
      CPPUNIT_ASSERT_EQUAL(std::string("application/json"), headerOf(one, "Accept").value_or("-"));
    }
  }

  void pluginsOwnHeaderWins() {
    plugin::HostImpl host(plugin::PluginKind::kSource, "dm", {},
                          plugin::HostServices{http_, catalog_}, "agent/1.0");
    sdk::HttpRequest request;
    request.headers = {{"user-agent", "plugin/2"}};
    host.http().send(request);
    const auto sent = http_.requests().at(0);
    CPPUNIT_ASSERT_EQUAL(std::size_t(1), sent.headers.size());
    CPPUNIT_ASSERT_EQUAL(std::string("plugin/2"), sent.headers[0].second);
  }

  void withoutTheKeyTheClientIsUntouched() {
    plugin::HostImpl host(plugin::PluginKind::kSource, "dm", {},
                          plugin::HostServices{http_, catalog_});
    CPPUNIT_ASSERT(&host.http() == &http_);
    host.http().send(sdk::HttpRequest{});
    CPPUNIT_ASSERT(!headerOf(http_.requests().at(0), "User-Agent"));
  }

  void registryRefusesABadValueNamingTheKey() {
    plugin::PluginRegistry registry;
    registry.scan(SKINPULSE_TEST_PLUGIN_DIR);
    const plugin::HostServices services{http_, catalog_};
    auto bad = registry.createSource(
        {plugin::PluginKind::kSource, "shop", "good", {{"url", "x"}, {"user_agent", "a\nb"}}},
        services);
    CPPUNIT_ASSERT(!bad.ok());
    SKINPULSE_ASSERT_CONTAINS(bad.error(), "key 'user_agent' must be printable ASCII");
    CPPUNIT_ASSERT(registry.validate({plugin::PluginKind::kSource,
                                      "shop",
                                      "good",
                                      {{"url", "x"}, {"user_agent", std::string(300, 'a')}}}));

    auto good = registry.createSource({plugin::PluginKind::kSource,
                                       "shop",
                                       "good",
                                       {{"url", "x"}, {"user_agent", "shop-agent/3"}}},
                                      services);
    CPPUNIT_ASSERT_MESSAGE(good ? "" : good.error(), good.ok());
    // The key is the daemon's: the plugin never sees it.
    CPPUNIT_ASSERT(!good.value().host()->config().get("user_agent"));
    good.value().host()->http().send(sdk::HttpRequest{});
    CPPUNIT_ASSERT_EQUAL(std::string("shop-agent/3"),
                         headerOf(http_.requests().back(), "User-Agent").value_or("-"));
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(UserAgentTest);
