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
    CPPUNIT_ASSERT(catalog::usableImageUrl("https://cdn.example/a.png"));
    CPPUNIT_ASSERT(!catalog::usableImageUrl("http://cdn.example/a.png"));
    CPPUNIT_ASSERT(!catalog::usableImageUrl("javascript:alert(1)"));
    CPPUNIT_ASSERT(!catalog::usableImageUrl("https://cdn.example/a b.png"));
    CPPUNIT_ASSERT(!catalog::usableImageUrl("https://cdn.example/\"onerror=x"));
    CPPUNIT_ASSERT(!catalog::usableImageUrl("https://cdn.example/<svg>"));
    CPPUNIT_ASSERT(!catalog::usableImageUrl("https://"));
    CPPUNIT_ASSERT(!catalog::usableImageUrl("https://cdn.example/" + std::string(2100, 'a')));
  }

  void buildsEconomyImageAddressesFromIconTokens() {
    CPPUNIT_ASSERT_EQUAL(
        std::string("https://community.akamai.steamstatic.com/economy/image/-9a81d_lW-Lw"),
        catalog::economyImageUrl("-9a81d_lW-Lw"));
    CPPUNIT_ASSERT(catalog::economyImageUrl("").empty());
    CPPUNIT_ASSERT(catalog::economyImageUrl("a b").empty());
    CPPUNIT_ASSERT(catalog::economyImageUrl("../../evil").empty());
    CPPUNIT_ASSERT(catalog::economyImageUrl("/absolute").empty());
    CPPUNIT_ASSERT(catalog::economyImageUrl("x?y=1").empty());
    CPPUNIT_ASSERT(catalog::economyImageUrl("https://elsewhere.example/x").empty());
    CPPUNIT_ASSERT(catalog::economyImageUrl(std::string(1025, 'a')).empty());
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(CatalogImagesTest);
