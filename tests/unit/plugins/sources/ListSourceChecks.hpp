#pragma once

// What every list plugin must survive, asserted once for all of them: upstream failures
// mapped to statuses (429 with Retry-After, 500, transport errors, over-cap bodies),
// garbage and hostile JSON, and hostile rows that are skipped without losing the others.
// Each plugin's test calls checkHostileInputs<Its>(…) and adds its own shape and units.

#include "skinpulse/sdk/source.hpp"

#include "mocks/Fixture.hpp"
#include "mocks/MockHost.hpp"

#include <cppunit/extensions/HelperMacros.h>

#include <functional>
#include <map>
#include <memory>
#include <string>

namespace sources_lists_test {

using skinpulse::sdk::HttpResponse;
using skinpulse::sdk::PriceKind;
using skinpulse::sdk::QuoteBatch;
using skinpulse::sdk::Status;
using skinpulse::test::fixture;
using skinpulse::test::MockHost;
using skinpulse::test::MockHttp;

/// The poll of a fresh `Source` whose every request gets `response`.
template <typename Source>
QuoteBatch pollWith(HttpResponse response, std::map<std::string, std::string> settings = {}) {
  MockHost host;
  host.settings = std::move(settings);
  if (!host.settings.count("url")) host.settings["url"] = "http://market.test/";
  host.http_client.on("http://market.test", std::move(response));
  Source source(host);
  return source.fetchQuotes();
}

/// `wrap(rows)` makes a document of the plugin's shape around a JSON list of rows; `row(name,
/// price)` one row of a usable item at that price (in the feed's own unit and type).
template <typename Source>
void checkHostileInputs(
    const std::function<std::string(const std::string&)>& wrap,
    const std::function<std::string(const std::string&, const std::string&)>& row,
    const std::map<std::string, std::string>& settings = {}) {
  const auto poll = [&settings](HttpResponse response,
                                std::map<std::string, std::string> extra = {}) {
    extra.insert(settings.begin(), settings.end());
    return pollWith<Source>(std::move(response), std::move(extra));
  };
  const auto code = [](const QuoteBatch& batch) { return batch.status.code(); };
  // Upstream failures.
  const QuoteBatch limited = poll(MockHttp::ok("{}", 429, {{"Retry-After", "120"}}));
  CPPUNIT_ASSERT(code(limited) == Status::Code::kRateLimited);
  CPPUNIT_ASSERT_EQUAL(std::int64_t{120}, limited.retry_after_seconds.value_or(-1));
  CPPUNIT_ASSERT(code(poll(MockHttp::ok("oops", 500))) == Status::Code::kUnavailable);
  CPPUNIT_ASSERT(code(poll(MockHttp::ok("", 403))) == Status::Code::kRejected);
  CPPUNIT_ASSERT(code(poll(MockHttp::failure(HttpResponse::Error::kTimeout, "slow"))) ==
                 Status::Code::kUnavailable);
  CPPUNIT_ASSERT(code(poll(MockHttp::failure(HttpResponse::Error::kTooLarge, "big"))) ==
                 Status::Code::kTooLarge);
  // A body over max_bytes that the transport let through is refused before parsing.
  CPPUNIT_ASSERT(code(poll(MockHttp::ok(wrap("[" + row("Recoil Case", "1") + "]")),
                           {{"max_bytes", "10"}})) == Status::Code::kTooLarge);

  // Garbage and hostile documents.
  for (const std::string& body :
       {std::string("<html>Just a moment...</html>"), std::string(""), std::string("[{\"a\":"),
        std::string(1000000, '['),
        std::string("{\"items\":") + std::string(40, '[') + std::string(40, ']') + "}",
        std::string("\"just a string\""), std::string("{\"success\":false}")}) {
    const QuoteBatch batch = poll(MockHttp::ok(body));
    CPPUNIT_ASSERT_MESSAGE(body.substr(0, 40), code(batch) == Status::Code::kMalformed);
    CPPUNIT_ASSERT(batch.quotes.empty());
  }

  // Hostile rows are skipped, the good one survives; an empty list is an empty market.
  const std::string hostile = "[" + row("", "1") + "," + row("   ", "1") + ",17,null,\"row\",[]," +
                              row("Huge", "18446744073709551616") + "," + row("Negative", "-5") +
                              "," + row("Zero", "0") + "," + row("Recoil Case", "1") + "]";
  const QuoteBatch survived = poll(MockHttp::ok(wrap(hostile)));
  CPPUNIT_ASSERT_MESSAGE(survived.status.message(), survived.status.isOk());
  bool recoil = false;
  for (const auto& quote : survived.quotes) {
    CPPUNIT_ASSERT(quote.market_hash_name != "" && quote.market_hash_name != "   ");
    CPPUNIT_ASSERT(quote.market_hash_name != "Negative" && quote.market_hash_name != "Zero");
    recoil = recoil || quote.market_hash_name == "Recoil Case";
  }
  CPPUNIT_ASSERT(recoil);
  const QuoteBatch empty = poll(MockHttp::ok(wrap("[]")));
  CPPUNIT_ASSERT(empty.status.isOk());
  CPPUNIT_ASSERT(empty.quotes.empty());
}

/// The fixture's AK-47 | Redline (Field-Tested) in USD cents, the host's rounding: a unit
/// off by ×10/×100/×1000 leaves the $10–$60 a Field-Tested Redline sells for.
inline std::int64_t redlineCents(const QuoteBatch& batch) {
  for (const auto& quote : batch.quotes) {
    if (quote.market_hash_name != "AK-47 | Redline (Field-Tested)") continue;
    using Form = skinpulse::sdk::QuotedPrice::Form;
    const auto& price = quote.price;
    const std::int64_t cents = price.form == Form::kCents
                                   ? price.cents
                                   : static_cast<std::int64_t>(price.major * 100.0 + 0.5);
    CPPUNIT_ASSERT_MESSAGE(std::to_string(cents), cents >= 1000 && cents <= 6000);
    return cents;
  }
  CPPUNIT_FAIL("no AK-47 | Redline (Field-Tested) in the batch");
  return 0;
}

}  // namespace sources_lists_test
