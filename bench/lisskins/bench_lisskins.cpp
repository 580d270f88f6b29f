// bench_lisskins: the lisskins plugin's streaming reader on an export of the real size.
//
//   bench_lisskins generate FILE LISTINGS [ITEMS]   write an export of the real shape
//   bench_lisskins parse FILE [PIECE_BYTES]         one parse; one JSON line of figures
//
// `parse` reads the file in pieces (64 KiB by default, as the host's client hands them
// over in at most 16 KiB: both are far above any per-token cost) and reports bytes,
// seconds, MB/s, items, listings and the process's peak RSS (VmHWM) before and after.
// One parse per process, so each run's VmHWM is its own; run.sh takes the median.

#include "LisskinsSource.hpp"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <random>
#include <string>
#include <vector>

namespace {

using skinpulse::plugins::lisskins::ExportReader;
using skinpulse::plugins::lisskins::PriceStatistic;

long vmHwmKb() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("VmHWM:", 0) == 0) return std::strtol(line.c_str() + 6, nullptr, 10);
  }
  return -1;
}

const char* const kWeapons[] = {"AK-47",        "M4A4", "M4A1-S", "AWP",   "Glock-18", "USP-S",
                                "Desert Eagle", "P250", "MP9",    "FAMAS", "Galil AR", "SSG 08"};
const char* const kWears[] = {"Factory New", "Minimal Wear", "Field-Tested", "Well-Worn",
                              "Battle-Scarred"};

int generate(const char* path, long listings, long items) {
  std::FILE* out = std::fopen(path, "wb");
  if (out == nullptr) {
    std::perror(path);
    return 1;
  }
  std::mt19937_64 random(17);
  // A skewed popularity, as on a real market: a few items have thousands of listings.
  std::vector<double> base(static_cast<std::size_t>(items));
  for (auto& price : base) price = 0.03 * std::exp(std::uniform_real_distribution<>(0, 10)(random));
  std::fputs("{\"last_update\":1721675822,\"items\":[", out);
  std::uniform_real_distribution<> unit(0, 1);
  long id = 40000000;
  for (long i = 0; i < listings; ++i) {
    const auto item = static_cast<long>(std::pow(unit(random), 2.0) * static_cast<double>(items));
    const double price = base[static_cast<std::size_t>(item)] * (0.9 + 0.4 * unit(random));
    id += 1 + static_cast<long>(random() % 7);
    const std::string stattrak = item % 9 == 0 ? "StatTrak\\u2122 " : "";
    // ~75-85 bytes a listing, as the real export's 173 MB for 2.3 M listings.
    std::fprintf(
        out,
        "%s{\"id\":%ld,\"name\":\"%s%s | Skin %ld (%s)\",\"price\":%.2f,\"created_at\":%ld,"
        "\"item_float\":%.4f}",
        i == 0 ? "" : ",", id, stattrak.c_str(), kWeapons[item % 12], item / 60,
        kWears[(item / 12) % 5], price, 1721600000 + i % 75000, unit(random));
  }
  std::fputs("]}\n", out);
  return std::fclose(out) == 0 ? 0 : 1;
}

int parse(const char* path, std::size_t piece) {
  std::FILE* in = std::fopen(path, "rb");
  if (in == nullptr) {
    std::perror(path);
    return 1;
  }
  std::vector<char> buffer(piece);
  const long hwm_before = vmHwmKb();
  const auto started = std::chrono::steady_clock::now();
  ExportReader reader;
  std::size_t total = 0;
  for (;;) {
    const std::size_t n = std::fread(buffer.data(), 1, buffer.size(), in);
    if (n == 0) break;
    total += n;
    if (!reader.feed(std::string_view(buffer.data(), n))) break;
  }
  std::fclose(in);
  const auto batch = reader.finish(PriceStatistic::kP05);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  std::printf(
      "{\"bytes\":%zu,\"seconds\":%.3f,\"mb_per_s\":%.1f,\"items\":%zu,\"listings\":%lld,"
      "\"skipped\":%lld,\"ok\":%s,\"vmhwm_before_kb\":%ld,\"vmhwm_after_kb\":%ld}\n",
      total, seconds, static_cast<double>(total) / 1e6 / seconds, batch.quotes.size(),
      static_cast<long long>(reader.counts().listings),
      static_cast<long long>(reader.counts().skipped), batch.status.isOk() ? "true" : "false",
      hwm_before, vmHwmKb());
  return batch.status.isOk() ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string mode = argc > 1 ? argv[1] : "";
  if (mode == "generate" && argc >= 4) {
    return generate(argv[2], std::atol(argv[3]), argc > 4 ? std::atol(argv[4]) : 25000);
  }
  if (mode == "parse" && argc >= 3) {
    return parse(argv[2], argc > 3 ? static_cast<std::size_t>(std::atol(argv[3])) : 65536);
  }
  std::cerr << "usage: bench_lisskins generate FILE LISTINGS [ITEMS] | parse FILE [PIECE_BYTES]\n";
  return 2;
}
