// bench_sources: how long a list plugin takes to turn a 30,000-item feed into quotes
// (issue 17: ≤ 20 ms), measured beside its references in the same run on the same bytes
// (bench/README.md, "sources/run.sh").
//
//   bench_sources [--items 30000] [--runs 11] [--only plugin|simdjson|poco]
//
// --only times one column (the others print 0): for a profiler.
//
// Per shape (the real field sets of docs/upstreams.md "More market feeds", generated names
// and prices):
//   plugin    support::parseList with the plugin's own mapping: parse + map + every quote
//             built (what fetchQuotes() does once the body is in; no HTTP), cold: a new
//             parser per poll, as the plugins do
//   warm      the same with one ListFeed kept across runs and no trim (what keeping the
//             parser's buffers between polls would buy; docs/adr/0012-fast-feed-parsing.md)
//   simdjson  simdjson::dom::parser::parse of the same bytes, nothing read (the floor)
//   poco      Poco::JSON::Parser::parse of the same bytes, nothing read (what the plugins
//             used before, docs/adr/0012-fast-feed-parsing.md)
// Median of RUNS, interleaved (plugin, simdjson, poco, plugin, …) so drift hits all three;
// thread CPU time, each call from a trimmed heap (see millis()).

#include "BitskinsSource.hpp"
#include "CsdealsSource.hpp"
#include "CsfloatSource.hpp"
#include "FeedMapping.hpp"
#include "ListFeed.hpp"
#include "MarketCsgoSource.hpp"
#include "SkinportSource.hpp"
#include "WaxpeerSource.hpp"

#include <Poco/JSON/Parser.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <functional>
#include <malloc.h>
#include <simdjson.h>
#include <string>
#include <string_view>
#include <vector>

namespace {

using skinpulse::plugins::support::ListFeed;
using skinpulse::plugins::support::mapFeed;
using skinpulse::plugins::support::Mapping;
using skinpulse::plugins::support::parseList;
using skinpulse::plugins::support::RowCounts;

constexpr const char* kWeapons[] = {"AK-47", "AWP",          "M4A4",       "M4A1-S", "Glock-18",
                                    "USP-S", "Desert Eagle", "★ Karambit", "MP9",    "Sticker"};
constexpr const char* kWears[] = {"Factory New", "Minimal Wear", "Field-Tested", "Well-Worn",
                                  "Battle-Scarred"};
constexpr const char* kImage =
    "https://community.akamai.steamstatic.com/economy/image/-9a81dlWLwJ2UUGcVs_nsVtzdOEdtWwKGZZ"
    "LQHTxDZ7I56KU0Zwwo4NUX4oFJZEHLbXH5ApeO4YmlhxYQknCRvCo04DEVlxkKgpot7HxfDhjxszJemkV09-5lpKKq"
    "PrxN7LEmyVQ7MEpiLuSrYmnjQO3-UdsZGHyd4_Bd1RvNQ7T_FDrw-_ng5Pu75iY1zI97bhLsvQz";

std::string name(int i) {
  return std::string(kWeapons[i % 10]) + " | Generated Finish " + std::to_string(i) + " (" +
         kWears[(i / 10) % 5] + ")";
}

// A deterministic price in cents, 3 to ~250,000.
long long cents(int i) { return 3 + (static_cast<long long>(i) * 7919) % 250000; }

std::string dollars(long long c) {
  char text[32];
  std::snprintf(text, sizeof text, "%lld.%02lld", c / 100, c % 100);
  return text;
}

struct Shape {
  const char* source;
  std::string body;
  Mapping mapping;
};

std::vector<Shape> shapes(int items) {
  std::string csfloat = "[", asks, bids, waxpeer, bitskins, csdeals, skinport = "[";
  asks = R"({"success":true,"time":1724318846,"currency":"USD","items":[)";
  bids = R"({"success":true,"time":1724318846,"currency":"USD","items":{)";
  waxpeer = R"({"success":true,"items":[)";
  bitskins = R"({"list":[)";
  csdeals = R"({"success":true,"response":{"time_updated":1732440000,"appid":730,"items":[)";
  for (int i = 0; i < items; ++i) {
    const std::string sep = i ? "," : "";
    const std::string n = "\"" + name(i) + "\"";
    const long long c = cents(i);
    const std::string count = std::to_string(1 + i % 977);
    csfloat += sep + R"({"market_hash_name":)" + n + R"(,"min_price":)" + std::to_string(c) +
               R"(,"quantity":)" + count + "}";
    asks += sep + R"({"market_hash_name":)" + n + R"(,"volume":")" + count + R"(","price":")" +
            dollars(c) + "\"}";
    bids +=
        sep + "\"" + std::to_string(310776560 + i) + "_" + std::to_string(i % 3 * 188530139) +
        R"(":{"price":")" + dollars(c) + R"(","buy_order":")" + dollars(c * 9 / 10) +
        R"(","avg_price":")" + dollars(c) + R"(","popularity_7d":")" + count +
        R"(","market_hash_name":)" + n +
        R"(,"ru_name":"Сгенерированный предмет","ru_rarity":"Засекреченное","ru_quality":"После полевых испытаний","text_color":"D2D2D2","bg_color":null})";
    waxpeer += sep + R"({"name":)" + n + R"(,"count":)" + count + R"(,"min":)" +
               std::to_string(c * 10) + R"(,"img":")" + kImage + R"(","steam_price":")" +
               std::to_string(c * 11) + R"(","type":"Rifle"})";
    bitskins += sep + R"({"skin_id":)" + std::to_string(i) + R"(,"name":)" + n +
                R"(,"price_min":)" + std::to_string(c * 10) + R"(,"price_max":)" +
                std::to_string(c * 25) + R"(,"price_avg":)" + std::to_string(c * 13) +
                R"(,"quantity":)" + count + "}";
    csdeals += sep + R"({"marketname":)" + n + R"(,"lowest_price":")" + dollars(c) + "\"}";
    skinport += sep + R"({"market_hash_name":)" + n + R"(,"currency":"USD","suggested_price":)" +
                dollars(c * 11 / 10) + R"(,"item_page":"https://skinport.com/item/generated-)" +
                std::to_string(i) +
                R"(","market_page":"https://skinport.com/market?item=Generated","min_price":)" +
                dollars(c) + R"(,"max_price":)" + dollars(c * 3) + R"(,"mean_price":)" +
                dollars(c * 2) + R"(,"median_price":)" + dollars(c * 2) + R"(,"quantity":)" +
                count + R"(,"created_at":1661324437,"updated_at":1731283259})";
  }
  namespace p = skinpulse::plugins;
  return {{"csfloat", csfloat + "]", p::csfloat::priceListMapping()},
          {"market_csgo asks", asks + "]}", p::market_csgo::askMapping()},
          {"market_csgo bids", bids + "}}", p::market_csgo::bidMapping()},
          {"waxpeer", waxpeer + "]}", p::waxpeer::mapping()},
          {"bitskins", bitskins + "]}", p::bitskins::mapping()},
          {"csdeals", csdeals + "]}}", p::csdeals::mapping()},
          {"skinport", skinport + "]", p::skinport::mapping()}};
}

double threadMillis() {
  timespec now{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) * 1e3 + static_cast<double>(now.tv_nsec) / 1e6;
}

// glibc consolidates the fast bins a Poco tree freed (millions of small blocks) on the next
// large allocation, whoever makes it: trimmed before every timed call, so no column pays for
// another's garbage, and each starts cold, its buffers faulted in anew, as a poll every few
// minutes does. Timed as the thread's CPU time (user + system, page faults included): the
// box is shared, and wall time would measure the neighbours.
double millis(const std::function<void()>& work, bool trim = true) {
  if (trim) malloc_trim(0);
  const double start = threadMillis();
  work();
  return threadMillis() - start;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

}  // namespace

int main(int argc, char** argv) {
  int items = 30000;
  int runs = 11;
  std::string only;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string_view flag = argv[i];
    if (flag == "--items") items = std::atoi(argv[i + 1]);
    if (flag == "--runs") runs = std::atoi(argv[i + 1]);
    if (flag == "--only") only = argv[i + 1];
  }
  if (items < 1 || runs < 1) {
    std::fprintf(stderr, "usage: bench_sources [--items N] [--runs N]\n");
    return 2;
  }
  std::printf("%-18s %7s %9s %8s %10s %8s %12s %8s %12s\n", "shape", "items", "bytes", "quotes",
              "plugin ms", "warm ms", "simdjson ms", "poco ms", "poco/plugin");
  int failed = 0;
  for (const Shape& shape : shapes(items)) {
    std::vector<double> plugin, warm, raw, poco;
    ListFeed kept;
    std::size_t quotes = static_cast<std::size_t>(items);
    const auto timed = [&only](const char* column, const std::function<void()>& work) {
      return only.empty() || only == column ? millis(work) : 0.0;
    };
    for (int run = 0; run < runs; ++run) {
      plugin.push_back(timed("plugin", [&] {
        RowCounts counts;
        const auto batch = parseList(shape.body, shape.mapping, 16, counts);
        quotes = batch.status.isOk() ? batch.quotes.size() : 0;
      }));
      warm.push_back(only.empty() || only == "warm"
                         ? millis(
                               [&] {
                                 RowCounts counts;
                                 if (kept.parse(shape.body, shape.body.size())) std::abort();
                                 const auto batch = mapFeed(kept.root(), shape.mapping, counts);
                                 if (batch.quotes.size() != static_cast<std::size_t>(items)) {
                                   std::abort();
                                 }
                               },
                               false)
                         : 0.0);
      raw.push_back(timed("simdjson", [&] {
        simdjson::dom::parser parser;
        simdjson::dom::element root;
        if (parser.parse(shape.body).get(root) != simdjson::SUCCESS) std::abort();
      }));
      poco.push_back(timed("poco", [&] {
        Poco::JSON::Parser parser;
        parser.parse(shape.body);
      }));
    }
    if (quotes != static_cast<std::size_t>(items)) ++failed;
    std::printf("%-18s %7d %9zu %8zu %10.2f %8.2f %12.2f %8.2f %11.1fx\n", shape.source, items,
                shape.body.size(), quotes, median(plugin), median(warm), median(raw), median(poco),
                median(poco) / median(plugin));
  }
  if (failed) std::fprintf(stderr, "bench_sources: %d shape(s) did not price every item\n", failed);
  return failed ? 1 : 0;
}
