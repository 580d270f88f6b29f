#pragma once

// What the contract tests share: the corpus under tests/fixtures/upstream/, a quote found
// by name and variant, a price in cents, a skip count by reason.

#include "skinpulse/sdk/source.hpp"

#include "mocks/Fixture.hpp"

#include <cppunit/extensions/HelperMacros.h>

#include <cmath>
#include <cstdint>
#include <string>

namespace sources_contract_test {

inline std::string upstream(const std::string& market, const std::string& file) {
  return skinpulse::test::fixture("upstream/" + market + "/" + file);
}

/// The one quote of `name` and `variant`; fails the test when there is none or several.
inline const skinpulse::sdk::VariantQuote& quoteOf(const skinpulse::sdk::PollReport& report,
                                                   const std::string& name,
                                                   const std::string& variant = {}) {
  const skinpulse::sdk::VariantQuote* found = nullptr;
  for (const auto& quote : report.quotes) {
    if (quote.market_hash_name != name || quote.variant != variant) continue;
    CPPUNIT_ASSERT_MESSAGE("two quotes of " + name + " [" + variant + "]", found == nullptr);
    found = &quote;
  }
  CPPUNIT_ASSERT_MESSAGE("no quote of " + name + " [" + variant + "]", found != nullptr);
  return *found;
}

/// A quote's price in US cents, the host's rounding (half away from zero).
inline std::int64_t centsOf(const skinpulse::sdk::VariantQuote& quote) {
  using Form = skinpulse::sdk::QuotedPrice::Form;
  if (quote.price.form == Form::kCents) return quote.price.cents;
  CPPUNIT_ASSERT(quote.price.form == Form::kMajor);
  return static_cast<std::int64_t>(std::llround(quote.price.major * 100.0));
}

/// The count of `reason` in the report's skips (0 when absent).
inline std::int64_t skippedFor(const skinpulse::sdk::SkipCounts& skipped,
                               const std::string& reason) {
  for (const auto& [name, n] : skipped) {
    if (name == reason) return n;
  }
  return 0;
}

inline std::int64_t totalSkipped(const skinpulse::sdk::SkipCounts& skipped) {
  std::int64_t total = 0;
  for (const auto& entry : skipped) total += entry.second;
  return total;
}

}  // namespace sources_contract_test
