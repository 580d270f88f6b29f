// SDK ABI 1.2 on its own (docs/adr/0011-sdk-abi-1-2.md): price kind names, the ABI 1.0
// view QuoteSource::fetch() gives, the descriptor entry the macro fills and its exception
// boundary, and that the ABI 1.0/1.1 layouts did not move.

#include "skinpulse/sdk/plugin.hpp"
#include "skinpulse/sdk/source.hpp"

#include <cppunit/extensions/HelperMacros.h>

#include <stdexcept>
#include <string>

namespace sdk = skinpulse::sdk;

namespace {

class TwoQuotes final : public sdk::QuoteSource {
 public:
  bool fail = false;
  sdk::QuoteBatch fetchQuotes() override {
    if (fail) throw std::runtime_error("upstream exploded");
    sdk::QuoteBatch batch;
    sdk::MarketQuote quote;
    quote.market_hash_name = "Recoil Case";
    quote.price.cents = 47;
    quote.kind = sdk::PriceKind::kBid;
    quote.volume = 3;
    quote.listings = 1700;
    quote.observed_at = 1795000000;
    batch.quotes.push_back(quote);
    batch.retry_after_seconds = 5;
    return batch;
  }
};

class Plain final : public sdk::MarketSource {
 public:
  sdk::FetchResult fetch() override { return {}; }
};

}  // namespace

// The frozen 1.0/1.1 descriptor ends at `destroy`: the 1.2 entry comes after it.
static_assert(offsetof(skinpulse_plugin_descriptor, fetch_quotes) ==
              offsetof(skinpulse_plugin_descriptor, destroy) + sizeof(skinpulse_destroy_fn));

class QuoteSourceTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(QuoteSourceTest);
  CPPUNIT_TEST(testKindNamesRoundTrip);
  CPPUNIT_TEST(testFetchIsTheAbi10View);
  CPPUNIT_TEST(testEntryOnlyForQuoteSources);
  CPPUNIT_TEST(testEntryCatchesExceptions);
  CPPUNIT_TEST_SUITE_END();

 public:
  void testKindNamesRoundTrip() {
    for (const auto kind : {sdk::PriceKind::kAsk, sdk::PriceKind::kBid, sdk::PriceKind::kSale,
                            sdk::PriceKind::kReference}) {
      CPPUNIT_ASSERT(sdk::parsePriceKind(sdk::priceKindName(kind)) == kind);
    }
    CPPUNIT_ASSERT(!sdk::parsePriceKind("Ask"));
    CPPUNIT_ASSERT(!sdk::parsePriceKind(""));
    CPPUNIT_ASSERT(!sdk::parsePriceKind("offer"));
  }

  void testFetchIsTheAbi10View() {
    TwoQuotes source;
    const sdk::FetchResult result = static_cast<sdk::MarketSource&>(source).fetch();
    CPPUNIT_ASSERT(result.status.isOk());
    CPPUNIT_ASSERT_EQUAL(std::size_t(1), result.observations.size());
    CPPUNIT_ASSERT_EQUAL(std::string("Recoil Case"), result.observations[0].market_hash_name);
    CPPUNIT_ASSERT_EQUAL(std::int64_t(47), result.observations[0].price.cents);
    CPPUNIT_ASSERT_EQUAL(std::int64_t(3), result.observations[0].volume);  // never listings
    CPPUNIT_ASSERT_EQUAL(std::int64_t(1795000000), *result.observations[0].observed_at);
    CPPUNIT_ASSERT_EQUAL(std::int64_t(5), *result.retry_after_seconds);
  }

  void testEntryOnlyForQuoteSources() {
    CPPUNIT_ASSERT((sdk::detail::fetchQuotesEntry<sdk::MarketSource, Plain>() == nullptr));
    const auto entry = sdk::detail::fetchQuotesEntry<sdk::MarketSource, TwoQuotes>();
    CPPUNIT_ASSERT(entry != nullptr);
    TwoQuotes source;
    sdk::QuoteBatch out;
    entry(static_cast<void*>(static_cast<sdk::MarketSource*>(&source)), &out);
    CPPUNIT_ASSERT_EQUAL(std::size_t(1), out.quotes.size());
    CPPUNIT_ASSERT(out.quotes[0].kind == sdk::PriceKind::kBid);
    CPPUNIT_ASSERT_EQUAL(std::int64_t(1700), *out.quotes[0].listings);
  }

  void testEntryCatchesExceptions() {
    TwoQuotes source;
    source.fail = true;
    sdk::QuoteBatch out;
    sdk::detail::fetchQuotesEntry<sdk::MarketSource, TwoQuotes>()(
        static_cast<void*>(static_cast<sdk::MarketSource*>(&source)), &out);
    CPPUNIT_ASSERT(out.status.code() == sdk::Status::Code::kInternal);
    CPPUNIT_ASSERT_EQUAL(std::string("upstream exploded"), out.status.message());
    CPPUNIT_ASSERT(out.quotes.empty());
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(QuoteSourceTest);
