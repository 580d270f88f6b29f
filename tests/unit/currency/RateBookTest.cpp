// RateBook (newest rate per currency wins, across instances) and the `currency=`
// parameter (docs/api.md §14): an unknown code or a code without a rate is 400
// invalid_parameter naming `currency`.

#include "currency/Conversion.hpp"
#include "currency/JsonAmounts.hpp"
#include "currency/RateBook.hpp"
#include "http/HttpError.hpp"

#include <cppunit/extensions/HelperMacros.h>

#include <thread>

using namespace skinpulse;
using namespace skinpulse::currency;

class RateBookTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(RateBookTest);
  CPPUNIT_TEST(newestRateWins);
  CPPUNIT_TEST(tiesGoToTheFirstInstanceName);
  CPPUNIT_TEST(invalidRatesAndUsdAreNotHeld);
  CPPUNIT_TEST(missingRateIs400);
  CPPUNIT_TEST(unknownCodeIs400);
  CPPUNIT_TEST(absentParameterIsPlainUsd);
  CPPUNIT_TEST(conversionConvertsAndTagsTheRate);
  CPPUNIT_TEST(jsonAmountsConvertOnlyTheNamedPaths);
  CPPUNIT_TEST(readersRunBesideWriters);
  CPPUNIT_TEST_SUITE_END();

 public:
  void newestRateWins() {
    RateBook book;
    CPPUNIT_ASSERT(book.offer({"EUR", 95, 100, 1000, "fixed"}));
    CPPUNIT_ASSERT(book.offer({"EUR", 625, 657, 2000, "ecb"}));    // newer
    CPPUNIT_ASSERT(!book.offer({"EUR", 90, 100, 1500, "fixed"}));  // older: ignored
    const auto eur = book.rateOf("EUR");
    CPPUNIT_ASSERT(eur);
    CPPUNIT_ASSERT_EQUAL(std::string("ecb"), eur->instance);
    CPPUNIT_ASSERT_EQUAL(std::int64_t(625), eur->numerator);
  }

  void tiesGoToTheFirstInstanceName() {
    RateBook book;
    book.offer({"JPY", 150, 1, 1000, "zeta"});
    CPPUNIT_ASSERT(book.offer({"JPY", 151, 1, 1000, "alpha"}));
    CPPUNIT_ASSERT(!book.offer({"JPY", 152, 1, 1000, "beta"}));
    CPPUNIT_ASSERT_EQUAL(std::string("alpha"), book.rateOf("JPY")->instance);
  }

  void invalidRatesAndUsdAreNotHeld() {
    RateBook book;
    CPPUNIT_ASSERT(!book.offer({"USD", 1, 1, 1000, "fixed"}));
    CPPUNIT_ASSERT(!book.offer({"EUR", 0, 1, 1000, "fixed"}));
    CPPUNIT_ASSERT(!book.offer({"QQQ", 1, 1, 1000, "fixed"}));
    CPPUNIT_ASSERT(book.snapshot()->empty());
  }

  void missingRateIs400() {
    RateBook book;
    book.offer({"EUR", 95, 100, 1000, "fixed"});
    try {
      conversionFor(book, std::string("JPY"));
      CPPUNIT_FAIL("expected 400");
    } catch (const http::HttpError& e) {
      CPPUNIT_ASSERT_EQUAL(400, e.status());
      CPPUNIT_ASSERT_EQUAL(std::string("invalid_parameter"), e.code());
      CPPUNIT_ASSERT(e.detail().find("currency") != std::string::npos);
    }
  }

  void unknownCodeIs400() {
    const RateBook& book = RateBook::none();
    for (const char* bad : {"XYZ", "EURO", "", "€", "e", "US D"}) {
      CPPUNIT_ASSERT_THROW_MESSAGE(bad, conversionFor(book, std::string(bad)), http::HttpError);
    }
  }

  void absentParameterIsPlainUsd() {
    const Conversion plain = conversionFor(RateBook::none(), std::nullopt);
    CPPUNIT_ASSERT(!plain.requested());
    CPPUNIT_ASSERT(plain.identity());
    CPPUNIT_ASSERT_EQUAL(std::int64_t(4210), plain.amount(std::int64_t(4210)));
    CPPUNIT_ASSERT_EQUAL(std::string(), plain.cacheTag());
    const Conversion usd = conversionFor(RateBook::none(), std::string("usd"));
    CPPUNIT_ASSERT(usd.requested());
    CPPUNIT_ASSERT_EQUAL(std::string("USD"), usd.code());
    CPPUNIT_ASSERT_EQUAL(std::int64_t(4210), usd.amount(std::int64_t(4210)));
  }

  void conversionConvertsAndTagsTheRate() {
    RateBook book;
    book.offer({"EUR", 95, 100, 1000, "fixed"});
    const Conversion eur = conversionFor(book, std::string("eur"));
    CPPUNIT_ASSERT_EQUAL(std::string("EUR"), eur.code());
    CPPUNIT_ASSERT_EQUAL(std::int64_t(48), eur.amount(std::int64_t(50)));
    CPPUNIT_ASSERT_EQUAL(std::int64_t(48), eur.amount(50.0));
    CPPUNIT_ASSERT_EQUAL(std::int64_t(-48), eur.amount(-50.0));
    const std::string tag = eur.cacheTag();
    book.offer({"EUR", 90, 100, 2000, "fixed"});
    CPPUNIT_ASSERT(tag != conversionFor(book, std::string("EUR")).cacheTag());
  }

  void jsonAmountsConvertOnlyTheNamedPaths() {
    RateBook book;
    book.offer({"EUR", 95, 100, 1000, "fixed"});
    const Conversion eur = conversionFor(book, std::string("EUR"));
    const std::string object =
        R"({"item_id":1,"source":"a:\"b\"","rolling_stddev":12.5,"percent_change":-3.5,)"
        R"("bollinger":{"upper":150,"middle":100,"lower":50},"trend_score":null})";
    CPPUNIT_ASSERT_EQUAL(
        std::string(R"({"item_id":1,"source":"a:\"b\"","rolling_stddev":12,"percent_change":-3.5,)"
                    R"("bollinger":{"upper":143,"middle":95,"lower":48},"trend_score":null,)"
                    R"("currency":"EUR"})"),
        convertJsonAmounts(object, eur,
                           {"rolling_stddev", "bollinger.upper", "bollinger.middle",
                            "bollinger.lower", "trend_score"}));
    const std::string ranking =
        R"([{"item_id":1,"current_price":4210},{"item_id":2,"current_price":null}])";
    CPPUNIT_ASSERT_EQUAL(std::string(R"([{"item_id":1,"current_price":4000,"currency":"EUR"},)"
                                     R"({"item_id":2,"current_price":null,"currency":"EUR"}])"),
                         convertJsonAmounts(ranking, eur, {"current_price"}));
    CPPUNIT_ASSERT_EQUAL(ranking, convertJsonAmounts(ranking, Conversion(), {"current_price"}));
  }

  void readersRunBesideWriters() {
    RateBook book;
    std::thread writer([&] {
      for (int i = 1; i <= 2000; ++i) book.offer({"EUR", 90 + i % 10, 100, i, "fixed"});
    });
    for (int i = 0; i < 2000; ++i) {
      const auto rates = book.snapshot();
      if (!rates->empty()) CPPUNIT_ASSERT(rates->at("EUR").denominator > 0);
    }
    writer.join();
    CPPUNIT_ASSERT_EQUAL(std::int64_t(2000), book.rateOf("EUR")->time);
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(RateBookTest);
