#pragma once

// One fuzz target per market-source plugin: the plugin's fetch() with every upstream
// answer replaced by the fuzzer's bytes (status 200), through the same mock host the
// unit tests use. What must hold: no crash, no hang, and an answer that is either a
// success with sane observations (quotes, for an ABI 1.2 source) or a failure status. An
// ABI 1.3 source is driven through poll(): its report's counts are never negative and a
// variant is one of the catalogue's names.

#include "skinpulse/sdk/variants.hpp"

#include "mocks/MockHost.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <type_traits>

namespace skinpulse::fuzz {

template <typename Source>
int fetchWithBody(const std::uint8_t* data, std::size_t size,
                  const std::map<std::string, std::string>& settings) {
  test::MockHost host;
  host.settings = settings;
  host.catalog_items.add("AK-47 | Redline (Field-Tested)");
  host.http_client.on("",
                      test::MockHttp::ok(std::string(reinterpret_cast<const char*>(data), size)));
  Source source(host);
  if constexpr (std::is_base_of_v<skinpulse::sdk::ReportingSource, Source>) {  // ABI 1.3
    const auto report = source.poll();
    if (report.rows_read < 0) __builtin_trap();
    for (const auto& [reason, n] : report.skipped) {
      if (reason.empty() || n <= 0) __builtin_trap();
    }
    if (report.status.isOk()) {
      for (const auto& quote : report.quotes) {
        if (quote.market_hash_name.empty()) __builtin_trap();
        if (quote.volume < 0 || (quote.listings && *quote.listings < 0)) __builtin_trap();
        const auto& names = skinpulse::sdk::kVariantNames;
        if (!quote.variant.empty() &&
            std::find(names.begin(), names.end(), quote.variant) == names.end()) {
          __builtin_trap();
        }
      }
    }
  } else if constexpr (std::is_base_of_v<skinpulse::sdk::QuoteSource, Source>) {  // ABI 1.2
    const auto result = source.fetchQuotes();
    if (result.status.isOk()) {
      for (const auto& quote : result.quotes) {
        if (quote.market_hash_name.empty()) __builtin_trap();
        if (quote.volume < 0 || (quote.listings && *quote.listings < 0)) __builtin_trap();
      }
    }
  } else {
    const auto result = source.fetch();
    if (result.status.isOk()) {
      for (const auto& observation : result.observations) {
        if (observation.market_hash_name.empty()) __builtin_trap();
      }
    }
  }
  return 0;
}

}  // namespace skinpulse::fuzz
