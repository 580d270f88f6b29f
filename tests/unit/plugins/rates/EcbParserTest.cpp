// The ECB daily reference rates parser (plugins/rates/ecb): the real document shape,
// converted to USD-based exact fractions, and hostile XML refused (external entities,
// entity expansion, deep nesting, oversize, garbage, wrong numbers).

#include "EcbParser.hpp"
#include "EcbRates.hpp"
#include "mocks/Fixture.hpp"
#include "mocks/MockHost.hpp"

#include <cppunit/extensions/HelperMacros.h>

#include <map>

using namespace skinpulse;
using namespace skinpulse::plugins::ecb;

namespace {

std::map<std::string, sdk::CurrencyRate> byCode(const EcbDocument& document) {
  std::map<std::string, sdk::CurrencyRate> out;
  for (const auto& rate : document.rates) out[rate.currency] = rate;
  return out;
}

std::string wrap(const std::string& rows) {
  return "<?xml version=\"1.0\"?><gesmes:Envelope xmlns:gesmes=\"http://www.gesmes.org/xml/"
         "2002-08-01\" xmlns=\"http://www.ecb.int/vocabulary/2002-08-01/eurofxref\"><Cube>"
         "<Cube time=\"2026-11-24\">" +
         rows + "</Cube></Cube></gesmes:Envelope>";
}

}  // namespace

class EcbParserTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(EcbParserTest);
  CPPUNIT_TEST(realShapeBecomesUsdBased);
  CPPUNIT_TEST(dateIsThePublicationAfternoon);
  CPPUNIT_TEST(externalEntityIsRefused);
  CPPUNIT_TEST(billionLaughsIsRefused);
  CPPUNIT_TEST(deepNestingIsRefused);
  CPPUNIT_TEST(oversizeIsRefused);
  CPPUNIT_TEST(garbageIsRefused);
  CPPUNIT_TEST(wrongNumbersAreSkipped);
  CPPUNIT_TEST(missingUsdIsAnError);
  CPPUNIT_TEST(pluginPollsAndReportsFailures);
  CPPUNIT_TEST_SUITE_END();

 public:
  void realShapeBecomesUsdBased() {
    const EcbDocument document = parseEcbDaily(test::fixture("ecb_eurofxref_daily_shape.xml"));
    CPPUNIT_ASSERT_EQUAL(std::string(), document.error);
    CPPUNIT_ASSERT_EQUAL(std::size_t(0), document.skipped);
    const auto rates = byCode(document);
    CPPUNIT_ASSERT_EQUAL(std::size_t(30), rates.size());  // 29 others + EUR, not USD
    CPPUNIT_ASSERT(!rates.count("USD"));
    // EUR per USD = 1 / 1.0512 = 10000 / 10512 = 625 / 657.
    CPPUNIT_ASSERT_EQUAL(std::int64_t(625), rates.at("EUR").numerator);
    CPPUNIT_ASSERT_EQUAL(std::int64_t(657), rates.at("EUR").denominator);
    // JPY per USD = 162.41 / 1.0512 ≈ 154.50.
    const auto& jpy = rates.at("JPY");
    const double value = static_cast<double>(jpy.numerator) / static_cast<double>(jpy.denominator);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(154.50, value, 0.01);
    CPPUNIT_ASSERT_EQUAL(jpy.numerator * 10512, jpy.denominator * 1624100);  // exact
    const auto& gbp = rates.at("GBP");
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.7908, static_cast<double>(gbp.numerator) / gbp.denominator,
                                 0.0001);
  }

  void dateIsThePublicationAfternoon() {
    CPPUNIT_ASSERT_EQUAL(std::int64_t(1795532400), ecbDateTime("2026-11-24"));  // 15:00Z
    CPPUNIT_ASSERT_EQUAL(std::int64_t(-1), ecbDateTime("2026-13-01"));
    CPPUNIT_ASSERT_EQUAL(std::int64_t(-1), ecbDateTime("24.11.2026"));
    CPPUNIT_ASSERT_EQUAL(std::int64_t(-1), ecbDateTime(""));
  }

  void externalEntityIsRefused() {
    const std::string xml =
        "<?xml version=\"1.0\"?><!DOCTYPE r [<!ENTITY x SYSTEM \"file:///etc/passwd\">]>"
        "<Envelope><Cube><Cube time=\"2026-11-24\"><Cube currency=\"USD\" rate=\"1.05\"/>"
        "<Cube currency=\"&x;\" rate=\"1\"/></Cube></Cube></Envelope>";
    const EcbDocument document = parseEcbDaily(xml);
    CPPUNIT_ASSERT(!document.error.empty());
    CPPUNIT_ASSERT(document.rates.empty());
    // An entity reference without a declaration is not resolved either.
    CPPUNIT_ASSERT(!parseEcbDaily(wrap("<Cube currency=\"USD\" rate=\"1.05\"/>&x;")).error.empty());
  }

  void billionLaughsIsRefused() {
    std::string xml = "<?xml version=\"1.0\"?><!DOCTYPE lolz [<!ENTITY lol \"lol\">";
    for (int i = 1; i < 10; ++i) {
      xml += "<!ENTITY lol" + std::to_string(i) + " \"";
      for (int j = 0; j < 10; ++j)
        xml += "&lol" + (i == 1 ? std::string() : std::to_string(i - 1)) + ";";
      xml += "\">";
    }
    xml += "]><Envelope><Cube><Cube time=\"&lol9;\"/></Cube></Envelope>";
    const EcbDocument document = parseEcbDaily(xml);
    CPPUNIT_ASSERT(!document.error.empty());
  }

  void deepNestingIsRefused() {
    std::string rows;
    for (int i = 0; i < 40; ++i) rows += "<a>";
    rows += "<Cube currency=\"USD\" rate=\"1.05\"/>";
    for (int i = 0; i < 40; ++i) rows += "</a>";
    const EcbDocument document = parseEcbDaily(wrap(rows));
    CPPUNIT_ASSERT(document.error.find("deep") != std::string::npos);
  }

  void oversizeIsRefused() {
    const std::string xml = test::fixture("ecb_eurofxref_daily_shape.xml");
    CPPUNIT_ASSERT(!parseEcbDaily(xml, 100).error.empty());
    CPPUNIT_ASSERT(parseEcbDaily(xml, xml.size()).error.empty());
  }

  void garbageIsRefused() {
    for (const std::string& bad :
         {std::string(""), std::string("{\"rates\":{}}"), std::string("<Envelope><Cube>"),
          std::string("\xff\xfe<\x00"), std::string("<a><b></a></b>"),
          wrap("<Cube currency=\"USD\" rate=\"1.05\">")}) {
      const EcbDocument document = parseEcbDaily(bad);
      CPPUNIT_ASSERT_MESSAGE(bad, !document.error.empty());
      CPPUNIT_ASSERT(document.rates.empty());
    }
  }

  void wrongNumbersAreSkipped() {
    const EcbDocument document = parseEcbDaily(
        wrap("<Cube currency=\"USD\" rate=\"1.0512\"/><Cube currency=\"JPY\" rate=\"-1\"/>"
             "<Cube currency=\"GBP\" rate=\"1e3\"/><Cube currency=\"CHF\" rate=\"0\"/>"
             "<Cube currency=\"SEK\" rate=\"11,53\"/><Cube currency=\"nok\" rate=\"11.7\"/>"
             "<Cube currency=\"PLN\" rate=\"99999999999999999999\"/>"
             "<Cube currency=\"CAD\" rate=\"1.4683\"/>"));
    CPPUNIT_ASSERT_EQUAL(std::string(), document.error);
    CPPUNIT_ASSERT_EQUAL(std::size_t(6), document.skipped);
    const auto rates = byCode(document);
    CPPUNIT_ASSERT_EQUAL(std::size_t(2), rates.size());  // EUR and CAD
    CPPUNIT_ASSERT(rates.count("CAD"));
  }

  void missingUsdIsAnError() {
    const EcbDocument document = parseEcbDaily(wrap("<Cube currency=\"JPY\" rate=\"162.41\"/>"));
    CPPUNIT_ASSERT(document.error.find("USD") != std::string::npos);
  }

  void pluginPollsAndReportsFailures() {
    test::MockHost host;
    host.settings["url"] = "http://ecb.test/daily.xml";
    EcbRates plugin(host);
    host.http_client.on("http://ecb.test/",
                        test::MockHttp::ok(test::fixture("ecb_eurofxref_daily_shape.xml")));
    sdk::RateBatch batch = plugin.fetchRates();
    CPPUNIT_ASSERT(batch.status.isOk());
    CPPUNIT_ASSERT_EQUAL(std::size_t(30), batch.rates.size());
    const auto request = host.http_client.requests().back();
    CPPUNIT_ASSERT(request.max_body_bytes <= kDefaultMaxBytes);
    CPPUNIT_ASSERT(request.timeout.count() <= 30000);

    host.http_client.on("http://ecb.test/",
                        test::MockHttp::ok("busy", 429, {{"Retry-After", "120"}}));
    batch = plugin.fetchRates();
    CPPUNIT_ASSERT(batch.status.code() == sdk::Status::Code::kRateLimited);
    CPPUNIT_ASSERT_EQUAL(std::int64_t(120), batch.retry_after_seconds.value_or(0));
    host.http_client.on("http://ecb.test/", test::MockHttp::ok("<html>maintenance</html>"));
    CPPUNIT_ASSERT(plugin.fetchRates().status.code() == sdk::Status::Code::kMalformed);

    test::MockHost bad;
    bad.settings["url"] = "ftp://x";
    CPPUNIT_ASSERT_THROW(EcbRates{bad}, std::invalid_argument);
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(EcbParserTest);
