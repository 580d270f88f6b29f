#include "catalog/CatalogImages.hpp"

#include <cppunit/extensions/HelperMacros.h>

using namespace skinpulse;

// What may become a catalogue picture: the pages render it into <img src>, so anything
// that is not a plain https address is refused, whoever proposed it.
class CatalogImagesTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(CatalogImagesTest);
  CPPUNIT_TEST(acceptsPlainHttpsAddressesOnly);
  CPPUNIT_TEST(buildsEconomyImageAddressesFromIconTokens);
  CPPUNIT_TEST_SUITE_END();

 public:
  void acceptsPlainHttpsAddressesOnly() {
    CPPUNIT_ASSERT(usableImageUrl("https://cdn.example/a.png"));
    CPPUNIT_ASSERT(!usableImageUrl("http://cdn.example/a.png"));
    CPPUNIT_ASSERT(!usableImageUrl("javascript:alert(1)"));
    CPPUNIT_ASSERT(!usableImageUrl("https://cdn.example/a b.png"));
    CPPUNIT_ASSERT(!usableImageUrl("https://cdn.example/\"onerror=x"));
    CPPUNIT_ASSERT(!usableImageUrl("https://cdn.example/<svg>"));
    CPPUNIT_ASSERT(!usableImageUrl("https://"));
    CPPUNIT_ASSERT(!usableImageUrl("https://cdn.example/" + std::string(2100, 'a')));
  }

  void buildsEconomyImageAddressesFromIconTokens() {
    CPPUNIT_ASSERT_EQUAL(
        std::string("https://community.akamai.steamstatic.com/economy/image/-9a81d_lW-Lw"),
        economyImageUrl("-9a81d_lW-Lw"));
    CPPUNIT_ASSERT(economyImageUrl("").empty());
    CPPUNIT_ASSERT(economyImageUrl("a b").empty());
    CPPUNIT_ASSERT(economyImageUrl("../../evil").empty());
    CPPUNIT_ASSERT(economyImageUrl("/absolute").empty());
    CPPUNIT_ASSERT(economyImageUrl("x?y=1").empty());
    CPPUNIT_ASSERT(economyImageUrl("https://elsewhere.example/x").empty());
    CPPUNIT_ASSERT(economyImageUrl(std::string(1025, 'a')).empty());
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(CatalogImagesTest);
