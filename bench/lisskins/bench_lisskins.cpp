// bench_lisskins: the lisskins plugin's streaming reader on an export of the real size.
//
//   bench_lisskins generate FILE LISTINGS [ITEMS]   write an export of the real shape
//   bench_lisskins long FILE string|number MIB      a hostile export: one MIB-long value
//   bench_lisskins parse FILE [PIECE_BYTES] [ours|yajl]  one parse; one JSON line of figures
//   bench_lisskins parsers                          the parsers this build can run
//
// `parse` reads the file in pieces (64 KiB by default, as the host's client hands them
// over in at most 16 KiB: both are far above any per-token cost) and reports bytes,
// seconds, MB/s, items, listings and the process's peak RSS (VmHWM) before and after.
// One parse per process, so each run's VmHWM is its own; run.sh takes the median.
// `ours` is the plugin's ExportReader; `yajl` (built when libyajl-dev is present) does the
// same with yajl 2 (YajlJsonParser) in place of StreamJsonParser: the same ListingReducer,
// limits and quotes (docs/adr/0013-streaming-bodies.md, "Why our own parser").

#include "LisskinsSource.hpp"
#ifdef SKINPULSE_BENCH_YAJL
#include "YajlJsonParser.hpp"
#endif

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <iostream>
#include <random>
#include <string>
#include <vector>

namespace {

using skinpulse::plugins::lisskins::ExportReader;
using skinpulse::plugins::lisskins::ListingReducer;
using skinpulse::plugins::lisskins::PriceStatistic;

#ifdef SKINPULSE_BENCH_YAJL
/// ExportReader with yajl: its finish() builds the batch as ExportReader::finish() does.
class YajlExportReader {
 public:
  explicit YajlExportReader(std::int64_t now) : reducer_(now) {}
  bool feed(std::string_view piece) { return parser_.feed(piece); }
  skinpulse::sdk::PollReport finish(PriceStatistic statistic) {
    if (!parser_.finish()) {
      skinpulse::sdk::PollReport batch;
      batch.status = skinpulse::sdk::Status(skinpulse::sdk::Status::Code::kMalformed,
                                            "invalid export: " + parser_.error());
      return batch;
    }
    return skinpulse::plugins::lisskins::quotesOf(reducer_, statistic);
  }
  const skinpulse::plugins::lisskins::ReduceCounts& counts() const { return reducer_.counts(); }

 private:
  ListingReducer reducer_;
  skinpulse::plugins::lisskins::YajlJsonParser parser_{reducer_, {32, 1024}};  // the plugin's
};
#endif

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

/// One listing whose name (or price) is `mib` MiB long, then one good listing: both parsers
/// must skip the first and keep the second; what it costs them is the point.
int generateLong(const char* path, const std::string& kind, long mib) {
  std::FILE* out = std::fopen(path, "wb");
  if (out == nullptr || (kind != "string" && kind != "number")) {
    if (out != nullptr) std::fclose(out);
    std::fprintf(stderr, "bench_lisskins long: cannot write %s of %s\n", path, kind.c_str());
    return 1;
  }
  const std::string filler(static_cast<std::size_t>(mib) * 1024 * 1024,
                           kind == "string" ? 'x' : '0');
  if (kind == "string") {
    std::fprintf(out, "{\"last_update\":1,\"items\":[{\"name\":\"%s\",\"price\":1},",
                 filler.c_str());
  } else {
    std::fprintf(out, "{\"last_update\":1,\"items\":[{\"name\":\"A\",\"price\":1%s},",
                 filler.c_str());
  }
  std::fputs("{\"name\":\"B\",\"price\":2}]}\n", out);
  return std::fclose(out) == 0 ? 0 : 1;
}

template <class Reader>
int parse(const char* path, std::size_t piece, const char* name) {
  std::FILE* in = std::fopen(path, "rb");
  if (in == nullptr) {
    std::perror(path);
    return 1;
  }
  std::vector<char> buffer(piece);
  const long hwm_before = vmHwmKb();
  const auto started = std::chrono::steady_clock::now();
  const std::clock_t cpu_started = std::clock();
  // Locks are held against the time of the run, as a poll holds them against its own.
  Reader reader(static_cast<std::int64_t>(std::time(nullptr)));
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
  // The process's CPU time: on a loaded shared box it moves far less than the wall time.
  const double cpu_seconds = static_cast<double>(std::clock() - cpu_started) / CLOCKS_PER_SEC;
  std::printf(
      "{\"parser\":\"%s\",\"bytes\":%zu,\"seconds\":%.3f,\"cpu_seconds\":%.3f,"
      "\"mb_per_s\":%.1f,\"cpu_mb_per_s\":%.1f,\"items\":%zu,\"listings\":%lld,"
      "\"skipped\":%lld,\"ok\":%s,\"vmhwm_before_kb\":%ld,\"vmhwm_after_kb\":%ld}\n",
      name, total, seconds, cpu_seconds, static_cast<double>(total) / 1e6 / seconds,
      static_cast<double>(total) / 1e6 / cpu_seconds, batch.quotes.size(),
      static_cast<long long>(reader.counts().listings),
      static_cast<long long>(reader.counts().skipped), batch.status.isOk() ? "true" : "false",
      hwm_before, vmHwmKb());
  if (!batch.status.isOk()) std::fprintf(stderr, "%s\n", batch.status.message().c_str());
  return batch.status.isOk() ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string mode = argc > 1 ? argv[1] : "";
  if (mode == "generate" && argc >= 4) {
    return generate(argv[2], std::atol(argv[3]), argc > 4 ? std::atol(argv[4]) : 25000);
  }
  if (mode == "long" && argc >= 5) return generateLong(argv[2], argv[3], std::atol(argv[4]));
  if (mode == "parsers") {
#ifdef SKINPULSE_BENCH_YAJL
    std::puts("ours yajl");
#else
    std::puts("ours");
#endif
    return 0;
  }
  if (mode == "parse" && argc >= 3) {
    const auto piece = argc > 3 ? static_cast<std::size_t>(std::atol(argv[3])) : 65536;
    const std::string parser = argc > 4 ? argv[4] : "ours";
    if (parser == "ours") return parse<ExportReader>(argv[2], piece, "ours");
#ifdef SKINPULSE_BENCH_YAJL
    if (parser == "yajl") return parse<YajlExportReader>(argv[2], piece, "yajl");
#endif
    std::cerr << "bench_lisskins: unknown parser " << parser << "\n";
    return 2;
  }
  std::cerr << "usage: bench_lisskins generate FILE LISTINGS [ITEMS] | long FILE string|number "
               "MIB | parse FILE [PIECE_BYTES] [ours|yajl] | parsers\n";
  return 2;
}
