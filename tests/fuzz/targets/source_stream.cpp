// The lisskins plugin's streaming reader (StreamJsonParser + ListingReducer behind
// ExportReader): the first two bytes pick where the document is split, the rest is the
// document. The same document read whole, in two pieces split there and in 7-byte pieces
// must give the same batch, and a successful batch must hold sane summaries.
#include "LisskinsSource.hpp"

#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

namespace {

using skinpulse::plugins::lisskins::ExportReader;
using skinpulse::plugins::lisskins::PriceStatistic;

// The poll time unlock_at is held against: a lot locked until later is skipped as locked.
constexpr std::int64_t kNow = 1795342500;  // 2026-11-22T10:15:00Z

std::string readIn(std::string_view document, std::size_t split, std::size_t step,
                   PriceStatistic statistic) {
  ExportReader reader(kNow);
  bool going = true;
  if (split > 0) going = reader.feed(document.substr(0, split));
  for (std::size_t at = split; at < document.size() && going; at += step) {
    going = reader.feed(document.substr(at, step));
  }
  const auto batch = reader.finish(statistic);
  // Every lot read is kept or skipped for a reason, none twice.
  const auto& counts = reader.counts();
  if (counts.bad_row + counts.bad_name + counts.bad_price + counts.bad_time + counts.locked +
          counts.too_many_items !=
      counts.skipped) {
    std::abort();
  }
  std::string out = std::to_string(static_cast<int>(batch.status.code())) + "|" +
                    std::to_string(batch.rows_read) + "|";
  for (const auto& quote : batch.quotes) {
    if (batch.status.isOk() && (quote.market_hash_name.empty() || quote.price.cents <= 0 ||
                                !quote.listings || *quote.listings < 1)) {
      std::abort();
    }
    // Variants come only from the table of variant paint kits.
    if (!quote.variant.empty() && quote.variant != "Phase 1" && quote.variant != "Phase 2" &&
        quote.variant != "Phase 3" && quote.variant != "Phase 4" && quote.variant != "Ruby" &&
        quote.variant != "Sapphire" && quote.variant != "Black Pearl" &&
        quote.variant != "Emerald") {
      std::abort();
    }
    out += quote.market_hash_name + "[" + quote.variant + "]=" + std::to_string(quote.price.cents) +
           "/" + std::to_string(quote.listings.value_or(0)) + ";";
  }
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 2) return 0;
  const std::string_view document(reinterpret_cast<const char*>(data) + 2, size - 2);
  const std::size_t split =
      document.empty() ? 0 : (static_cast<std::size_t>(data[0]) << 8 | data[1]) % document.size();
  const std::size_t whole = document.size() + 1;
  // The pieces change nothing (the statistic does not enter into it: one is enough).
  const std::string once = readIn(document, 0, whole, PriceStatistic::kP05);
  if (readIn(document, split, whole, PriceStatistic::kP05) != once) std::abort();
  if (readIn(document, 0, 7, PriceStatistic::kP05) != once) std::abort();
  // min <= p05 <= median, item by item (the batches are sorted by name).
  const auto cents = [&](PriceStatistic statistic) {
    ExportReader reader(kNow);
    reader.feed(document);
    return reader.finish(statistic);
  };
  const auto min = cents(PriceStatistic::kMin);
  const auto p05 = cents(PriceStatistic::kP05);
  const auto median = cents(PriceStatistic::kMedian);
  for (std::size_t i = 0; i < min.quotes.size(); ++i) {
    if (min.quotes[i].price.cents > p05.quotes[i].price.cents ||
        p05.quotes[i].price.cents > median.quotes[i].price.cents) {
      std::abort();
    }
  }
  return 0;
}
