#include "ClaimedId.hpp"

#include <cppunit/extensions/HelperMacros.h>

#include <string>
#include <vector>

using skinpulse::plugins::openid2::isIndividualPlatformId;
using skinpulse::plugins::openid2::platformIdOf;

namespace {

const std::string kHost = "steamcommunity.com";
const std::string kId = "76561197972494985";
const std::string kGood = "https://steamcommunity.com/openid/id/" + kId;

struct Case {
  const char* why;
  std::string claimed;
};

}  // namespace

class ClaimedIdTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(ClaimedIdTest);
  CPPUNIT_TEST(acceptsTheOneShape);
  CPPUNIT_TEST(refusesEveryViolation);
  CPPUNIT_TEST(individualRangeBounds);
  CPPUNIT_TEST(hostComesFromConfiguration);
  CPPUNIT_TEST_SUITE_END();

 public:
  void acceptsTheOneShape() {
    CPPUNIT_ASSERT_EQUAL(kId, platformIdOf(kGood, kHost).value_or("refused"));
  }

  void refusesEveryViolation() {
    const std::string path = "/openid/id/" + kId;
    const std::vector<Case> cases = {
        // scheme
        {"http scheme", "http://steamcommunity.com" + path},
        {"upper-case scheme", "HTTPS://steamcommunity.com" + path},
        {"no scheme", "//steamcommunity.com" + path},
        {"other scheme", "ftp://steamcommunity.com" + path},
        // host
        {"look-alike suffix", "https://steamcommunity.com.evil.example" + path},
        {"look-alike prefix", "https://evilsteamcommunity.com" + path},
        {"subdomain", "https://www.steamcommunity.com" + path},
        {"typo host", "https://steamcommunlty.com" + path},
        {"upper-case host", "https://SteamCommunity.com" + path},
        {"trailing dot host", "https://steamcommunity.com." + path},
        {"userinfo", "https://steamcommunity.com@evil.example" + path},
        {"userinfo before host", "https://evil@steamcommunity.com" + path},
        {"port", "https://steamcommunity.com:443" + path},
        {"other port", "https://steamcommunity.com:8443" + path},
        {"host in path", "https://evil.example/steamcommunity.com" + path},
        {"backslash", "https://evil.example\\@steamcommunity.com" + path},
        {"empty", ""},
        // path
        {"wrong prefix", "https://steamcommunity.com/openid/ids/" + kId},
        {"profiles path", "https://steamcommunity.com/profiles/" + kId},
        {"extra segment", "https://steamcommunity.com/openid/id/" + kId + "/extra"},
        {"segment before", "https://steamcommunity.com/x/openid/id/" + kId},
        {"dot segments", "https://steamcommunity.com/openid/../openid/id/" + kId},
        {"double slash", "https://steamcommunity.com//openid/id/" + kId},
        {"trailing slash", kGood + "/"},
        {"query", kGood + "?x=1"},
        {"fragment", kGood + "#x"},
        {"empty query", kGood + "?"},
        {"trailing space", kGood + " "},
        {"leading space", " " + kGood},
        {"newline", kGood + "\n"},
        {"NUL", kGood + std::string(1, '\0')},
        // percent-encoded tricks
        {"encoded digit", "https://steamcommunity.com/openid/id/%37" + kId.substr(1)},
        {"encoded slash", "https://steamcommunity.com/openid%2Fid/" + kId},
        {"encoded host char", "https://steamcommunity%2Ecom" + path},
        {"encoded at", "https://steamcommunity.com%40evil.example" + path},
        // digits and length
        {"16 digits", "https://steamcommunity.com/openid/id/" + kId.substr(1)},
        {"18 digits", kGood + "1"},
        {"letters", "https://steamcommunity.com/openid/id/7656119797249498a"},
        {"sign", "https://steamcommunity.com/openid/id/+6561197972494985"},
        {"spaces in id", "https://steamcommunity.com/openid/id/ 7656119797249498"},
        {"full-width digits", "https://steamcommunity.com/openid/id/\xEF\xBC\x97" + kId.substr(1)},
        {"no id", "https://steamcommunity.com/openid/id/"},
        {"very long", kGood + std::string(5000, '0')},
        // range
        {"below individual range", "https://steamcommunity.com/openid/id/76561197960265728"},
        {"above individual range", "https://steamcommunity.com/openid/id/76561202255233024"},
        {"zeros", "https://steamcommunity.com/openid/id/00000000000000000"},
        {"nines", "https://steamcommunity.com/openid/id/99999999999999999"},
    };
    for (const auto& c : cases) {
      CPPUNIT_ASSERT_MESSAGE(c.why, !platformIdOf(c.claimed, kHost).has_value());
    }
  }

  void individualRangeBounds() {
    CPPUNIT_ASSERT(isIndividualPlatformId("76561197960265729"));
    CPPUNIT_ASSERT(isIndividualPlatformId("76561202255233023"));
    CPPUNIT_ASSERT(!isIndividualPlatformId("76561197960265728"));
    CPPUNIT_ASSERT(!isIndividualPlatformId("76561202255233024"));
    CPPUNIT_ASSERT(!isIndividualPlatformId("7656119796026573"));
  }

  void hostComesFromConfiguration() {
    CPPUNIT_ASSERT(platformIdOf("https://id.test:8443/openid/id/" + kId, "id.test:8443"));
    CPPUNIT_ASSERT(!platformIdOf(kGood, "id.test:8443"));
    CPPUNIT_ASSERT(!platformIdOf("https:///openid/id/" + kId, ""));
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(ClaimedIdTest);
