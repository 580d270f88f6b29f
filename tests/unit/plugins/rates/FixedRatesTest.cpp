// The fixed rates plugin (plugins/rates/fixed): `rates = EUR:0.95, JPY:151.2` read exactly;
// bad syntax is a clear error when the instance is created (the daemon's start).

#include "FixedRates.hpp"
#include "mocks/MockHost.hpp"

#include <cppunit/extensions/HelperMacros.h>

using namespace skinpulse;
using namespace skinpulse::plugins::fixed;

class FixedRatesTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(FixedRatesTest);
  CPPUNIT_TEST(readsPairsExactly);
  CPPUNIT_TEST(badSyntaxIsAClearError);
  CPPUNIT_TEST(ratesCarryTheStartTime);
  CPPUNIT_TEST_SUITE_END();

 public:
  void readsPairsExactly() {
    const auto rates = parseFixedRates("EUR:0.95, JPY:151.2 ,KWD:0.307,");
    CPPUNIT_ASSERT_EQUAL(std::size_t(3), rates.size());
    CPPUNIT_ASSERT_EQUAL(std::string("EUR"), rates[0].currency);
    CPPUNIT_ASSERT_EQUAL(std::int64_t(95), rates[0].numerator);
    CPPUNIT_ASSERT_EQUAL(std::int64_t(100), rates[0].denominator);
    CPPUNIT_ASSERT_EQUAL(std::int64_t(1512), rates[1].numerator);
    CPPUNIT_ASSERT_EQUAL(std::int64_t(10), rates[1].denominator);
    CPPUNIT_ASSERT_EQUAL(std::int64_t(307), rates[2].numerator);
  }

  void badSyntaxIsAClearError() {
    for (const char* bad : {"", "EUR", "EUR=0.95", "eur:0.95", "EURO:1", "EUR:", "EUR:-1", "EUR:0",
                            "EUR:1e3", "EUR:0.95,EUR:0.9", "USD:1", "EUR:0.95,,JPY:1", "EUR:1,2"}) {
      try {
        parseFixedRates(bad);
        CPPUNIT_FAIL(std::string("accepted: ") + bad);
      } catch (const std::invalid_argument& e) {
        CPPUNIT_ASSERT_MESSAGE(e.what(), std::string(e.what()).rfind("rates:", 0) == 0);
      }
    }
    test::MockHost host;  // no `rates` key
    CPPUNIT_ASSERT_THROW(FixedRates{host}, std::invalid_argument);
  }

  void ratesCarryTheStartTime() {
    test::MockHost host;
    host.settings["rates"] = "EUR:0.95";
    FixedRates plugin(host);
    host.now_millis += 3600 * 1000;
    const auto batch = plugin.fetchRates();
    CPPUNIT_ASSERT(batch.status.isOk());
    CPPUNIT_ASSERT_EQUAL(std::int64_t(1795342500), batch.rates.at(0).time);
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(FixedRatesTest);
