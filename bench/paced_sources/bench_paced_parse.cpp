// Parse time of the paced sources' unit of work: one DMarket aggregated-prices batch of
// 100 catalogue titles, and one Steam search/render page of 10 (the shipped page) and of
// 100 results (Steam's maximum), built from tests/fixtures. Prints the median of 3,000 runs.
//   build/bin/bench_paced_parse   (or wherever the build puts it)
#include "DmarketParse.hpp"
#include "SteamSearchPage.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace {

using namespace skinpulse::plugins;

template <typename F>
double medianMicros(F work, int runs) {
  std::vector<double> times;
  for (int i = 0; i < runs; ++i) {
    const auto start = std::chrono::steady_clock::now();
    work();
    times.push_back(
        std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start)
            .count());
  }
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

std::string readFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream out;
  out << in.rdbuf();
  return out.str();
}

}  // namespace

int main() {
  const std::string root = SKINPULSE_SOURCE_DIR;
  std::ifstream catalogue(root + "/share/catalog/items.jsonl");
  std::vector<std::string> titles;
  std::string line;
  while (std::getline(catalogue, line) && titles.size() < 100) {
    if (line.find("\"variant\":") != std::string::npos) continue;  // repeats its base's name
    const auto at = line.find("\"market_hash_name\":\"") + 20;
    titles.push_back(line.substr(at, line.find('"', at) - at));
  }
  std::string batch = "{\"aggregatedPrices\":[";
  for (std::size_t i = 0; i < titles.size(); ++i) {
    batch += (i ? "," : "") + std::string("{\"title\":\"") + titles[i] +
             "\",\"orderBestPrice\":\"" + std::to_string(100 + i * 37) +
             "\",\"orderCount\":" + std::to_string(i) + ",\"offerBestPrice\":\"" +
             std::to_string(120 + i * 41) + "\",\"offerCount\":" + std::to_string(i + 3) + "}";
  }
  batch += "],\"nextCursor\":\"\"}";
  const std::string page10 = readFile(root + "/tests/fixtures/steam_search_render_page_shape.json");
  const auto first = page10.find("\"results\": [") + 12;
  const auto last = page10.rfind(']');
  const std::string rows = page10.substr(first, last - first);
  std::string many;
  for (int i = 0; i < 10; ++i) many += (i ? "," : "") + rows;
  const std::string page100 = page10.substr(0, first) + many + page10.substr(last);

  std::size_t quotes = 0;
  const double dmarket = medianMicros(
      [&] { quotes += dmarket::parseAggregated(batch, dmarket::PriceUnit::kCents).quotes.size(); },
      3000);
  const double steam10 =
      medianMicros([&] { quotes += steam_market::parseSearchPage(page10).quotes.size(); }, 3000);
  const double steam100 =
      medianMicros([&] { quotes += steam_market::parseSearchPage(page100).quotes.size(); }, 3000);
  std::printf("dmarket aggregated batch, 100 titles (%zu bytes): %.1f us\n", batch.size(), dmarket);
  std::printf("steam search page, 10 results (%zu bytes): %.1f us\n", page10.size(), steam10);
  std::printf("steam search page, 100 results (%zu bytes): %.1f us\n", page100.size(), steam100);
  std::printf("(%zu quotes read)\n", quotes);
  return 0;
}
