// RatesPoller (daemon/rates) and the conversion at ingest (docs/api.md §12, §14): a poll's
// usable rates are stored and reach the book; stored rates load at start; a failed poll
// keeps the old rates; non-USD quotes become USD cents with the newest rate or are
// rejected as no_rate.

#include "FixedRates.hpp"
#include "catalog/Catalog.hpp"
#include "ingest/Normaliser.hpp"
#include "mocks/MockHost.hpp"
#include "rates/CurrenciesApi.hpp"
#include "rates/RatesPoller.hpp"
#include "store/Database.hpp"

#include <cppunit/extensions/HelperMacros.h>

using namespace skinpulse;

namespace {

class Failing final : public sdk::RateSource {
 public:
  sdk::RateBatch fetchRates() override {
    sdk::RateBatch batch;
    batch.status = sdk::Status(sdk::Status::Code::kUnavailable, "down");
    return batch;
  }
};

class Listing final : public sdk::RateSource {
 public:
  std::vector<sdk::CurrencyRate> rates;
  sdk::RateBatch fetchRates() override {
    sdk::RateBatch batch;
    batch.rates = rates;
    return batch;
  }
};

constexpr std::int64_t kNow = 1'795'000'000;

}  // namespace

class RatesPollerTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(RatesPollerTest);
  CPPUNIT_TEST(pollStoresAndFillsTheBook);
  CPPUNIT_TEST(storedRatesLoadAtStart);
  CPPUNIT_TEST(unusableRatesAreSkipped);
  CPPUNIT_TEST(failedPollKeepsOldRates);
  CPPUNIT_TEST(currenciesListUsdFirst);
  CPPUNIT_TEST(ingestConvertsWithTheNewestRate);
  CPPUNIT_TEST_SUITE_END();

  std::unique_ptr<store::Database> db_;

 public:
  void setUp() override {
    db_ = store::openDatabase("sqlite://:memory:", std::string(SKINPULSE_SHARE_DIR) + "/sql");
  }
  void tearDown() override { db_.reset(); }

  void pollStoresAndFillsTheBook() {
    test::MockHost host;
    host.settings["rates"] = "EUR:0.95, JPY:151.2";
    plugins::fixed::FixedRates fixed(host);
    currency::RateBook book;
    rates::RatesOptions options;
    options.name = "fixed";
    rates::RatesPoller poller({{options, &fixed}}, book, &db_->rates(), [] { return kNow; });
    poller.pollOnce(0);
    CPPUNIT_ASSERT_EQUAL(std::int64_t(756), book.rateOf("JPY")->numerator);  // 1512/10 reduced
    CPPUNIT_ASSERT_EQUAL(std::string("fixed"), book.rateOf("EUR")->instance);
    const auto stored = db_->rates().allRates();
    CPPUNIT_ASSERT_EQUAL(std::size_t(2), stored.size());
    CPPUNIT_ASSERT_EQUAL(std::string("EUR"), stored[0].currency);
    CPPUNIT_ASSERT_EQUAL(std::int64_t(19), stored[0].numerator);  // 95/100 reduced
    CPPUNIT_ASSERT_EQUAL(std::int64_t(20), stored[0].denominator);
    CPPUNIT_ASSERT_EQUAL(kNow, stored[0].fetched_at);
    const auto status = poller.status().at(0);
    CPPUNIT_ASSERT_EQUAL(kNow, status.last_success.value_or(0));
    CPPUNIT_ASSERT_EQUAL(std::size_t(2), status.rates);
  }

  void storedRatesLoadAtStart() {
    db_->rates().storeRates(
        {{"EUR", "ecb", 625, 657, 2000, 2100}, {"EUR", "old", 9, 10, 1000, 1100}});
    db_->rates().storeRates({{"EUR", "ecb", 1, 1, 1500, 2200}});  // older than stored: kept out
    currency::RateBook book;
    rates::RatesPoller poller({}, book, &db_->rates());
    poller.loadStored();
    const auto eur = book.rateOf("EUR");
    CPPUNIT_ASSERT(eur);
    CPPUNIT_ASSERT_EQUAL(std::string("ecb"), eur->instance);
    CPPUNIT_ASSERT_EQUAL(std::int64_t(625), eur->numerator);
  }

  void unusableRatesAreSkipped() {
    std::vector<std::string> skipped;
    const auto rates = rates::usableRates("x",
                                          {{"eur", 95, 100, 10},
                                           {"USD", 1, 1, 10},
                                           {"ZZZ", 1, 1, 10},
                                           {"JPY", 0, 1, 10},
                                           {"GBP", 1, 1, 0}},
                                          skipped);
    CPPUNIT_ASSERT_EQUAL(std::size_t(1), rates.size());
    CPPUNIT_ASSERT_EQUAL(std::string("EUR"), rates[0].currency);
    CPPUNIT_ASSERT_EQUAL(std::size_t(3), skipped.size());
  }

  void failedPollKeepsOldRates() {
    currency::RateBook book;
    book.offer({"EUR", 95, 100, 1000, "down"});
    Failing failing;
    rates::RatesOptions options;
    options.name = "down";
    rates::RatesPoller poller({{options, &failing}}, book, nullptr, [] { return kNow; });
    poller.pollOnce(0);
    CPPUNIT_ASSERT(book.rateOf("EUR"));
    CPPUNIT_ASSERT_EQUAL(std::string("down"), poller.status().at(0).last_error);
  }

  void currenciesListUsdFirst() {
    currency::RateBook book;
    book.offer({"JPY", 1512, 10, 1795532400, "fixed"});
    book.offer({"EUR", 625, 657, 1795532400, "ecb"});
    const std::string body = rates::renderCurrencies(book);
    CPPUNIT_ASSERT_EQUAL(std::size_t(0), body.find("[{\"code\":\"USD\",\"exponent\":2"));
    CPPUNIT_ASSERT(body.find("\"code\":\"EUR\"") < body.find("\"code\":\"JPY\""));
    CPPUNIT_ASSERT(body.find("\"code\":\"JPY\",\"exponent\":0,\"units_per_usd\":151.2") !=
                   std::string::npos);
    CPPUNIT_ASSERT(body.find("\"time\":\"2026-11-24T15:00:00Z\",\"instance\":\"ecb\"") !=
                   std::string::npos);
  }

  void ingestConvertsWithTheNewestRate() {
    std::vector<store::CatalogEntry> entries(1);
    entries[0].market_hash_name = "AK-47 | Redline (Field-Tested)";
    db_->catalog().seed(entries, kNow - 1000);
    catalog::Catalog catalog;
    catalog.reset(db_->catalog().allItems());
    currency::RateBook book;
    book.offer({"EUR", 95, 100, 1000, "fixed"});
    book.offer({"JPY", 1512, 10, 1000, "fixed"});
    book.offer({"KWD", 307, 1000, 1000, "fixed"});
    // Each quote its own observation time: rows of one (item, source, time) are merged
    // into one point (docs/api.md §18), and this test reads every conversion.
    std::int64_t seconds_ago = 0;
    auto quote = [&seconds_ago](std::string currency, sdk::QuotedPrice price) {
      sdk::VariantQuote q;
      q.market_hash_name = "AK-47 | Redline (Field-Tested)";
      q.price = std::move(price);
      q.currency = std::move(currency);
      q.observed_at = kNow - ++seconds_ago;
      return q;
    };
    sdk::QuotedPrice eur_cents{sdk::QuotedPrice::Form::kCents, 3800, 0, {}};
    sdk::QuotedPrice yen{sdk::QuotedPrice::Form::kCents, 6048, 0, {}};  // minor unit = yen
    sdk::QuotedPrice yen_major{sdk::QuotedPrice::Form::kMajor, 0, 6048.0, {}};
    sdk::QuotedPrice fils{sdk::QuotedPrice::Form::kCents, 12280, 0, {}};  // 12.280 KWD
    sdk::QuotedPrice eur_text{sdk::QuotedPrice::Form::kText, 0, 0, "38,00 €"};
    const auto rates = book.snapshot();
    const std::string source = "eu";
    ingest::NormaliseInput input{source, kNow};
    input.rates = rates.get();
    const auto batch = ingest::normalise(
        input, {},
        {quote("EUR", eur_cents), quote("JPY", yen), quote("jpy", yen_major), quote("KWD", fils),
         quote("EUR", eur_text), quote("GBP", eur_cents), quote("USD", eur_cents)},
        *catalog.snapshot());
    CPPUNIT_ASSERT_EQUAL(std::size_t(6), batch.points.size());
    CPPUNIT_ASSERT_EQUAL(std::int64_t(4000), batch.points[0].price);  // €38.00 / 0.95
    CPPUNIT_ASSERT_EQUAL(std::int64_t(4000), batch.points[1].price);  // ¥6048 / 151.2
    CPPUNIT_ASSERT_EQUAL(std::int64_t(4000), batch.points[2].price);
    CPPUNIT_ASSERT_EQUAL(std::int64_t(4000), batch.points[3].price);  // 12.280 KWD / 0.307
    CPPUNIT_ASSERT_EQUAL(std::int64_t(4000), batch.points[4].price);
    CPPUNIT_ASSERT_EQUAL(std::int64_t(3800), batch.points[5].price);     // USD unchanged
    CPPUNIT_ASSERT_EQUAL(std::size_t(1), batch.rejected.at("no_rate"));  // GBP
    // No book at all: every non-USD quote is no_rate.
    ingest::NormaliseInput bare{source, kNow};
    const auto none = ingest::normalise(bare, {}, {quote("EUR", eur_cents)}, *catalog.snapshot());
    CPPUNIT_ASSERT_EQUAL(std::size_t(1), none.rejected.at("no_rate"));
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(RatesPollerTest);
