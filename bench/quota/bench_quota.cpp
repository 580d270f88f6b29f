// bench_quota: what the read budget (access::QuotaGuard, docs/adr/0028) costs per request,
// beside the same guard with every budget off (the built-in default: the path a daemon
// without [api] requests_per_minute runs). Cases, each ITERATIONS admits:
//   off           budgets 0: the method/path check and a relaxed counter add
//   one_client    one client address under a budget it never reaches
//   many_clients  10,000 client addresses (IPv4 and IPv6 /64s) in rotation
//   api_key       a valid key: header parse, SHA-256, directory lookup, per-key count
//   two_threads   one_client on two threads at once (the two event loops), ns per admit
// Prints one JSON line of nanoseconds per admit (median of RUNS runs).
//
//   bench_quota [ITERATIONS] [RUNS]   (defaults 2000000, 5)

#include "access/ApiKey.hpp"
#include "access/QuotaGuard.hpp"
#include "http/Router.hpp"
#include "store/Database.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

using namespace skinpulse;
using SteadyClock = std::chrono::steady_clock;

namespace {

http::Request read(const std::string& peer, http::Headers headers = {}) {
  http::Request request;
  request.method = "GET";
  request.path = "/api/v1/items/42";
  request.target = request.path;
  request.client_address = peer;
  request.headers = std::move(headers);
  return request;
}

double nsPerAdmit(const access::QuotaGuard& guard, std::vector<http::Request>& requests,
                  long iterations) {
  const http::RouteOptions route{.runs_inline = true};
  const auto start = SteadyClock::now();
  for (long i = 0; i < iterations; ++i) guard.admit(requests[i % requests.size()], route);
  const std::chrono::duration<double, std::nano> spent = SteadyClock::now() - start;
  return spent.count() / static_cast<double>(iterations);
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  const long iterations = argc > 1 ? std::atol(argv[1]) : 2000000;
  const int runs = argc > 2 ? std::atoi(argv[2]) : 5;
  auto db = store::openDatabase("sqlite://:memory:", std::string(SKINPULSE_SHARE_DIR) + "/sql");
  const auto user = db->users().createUser("bench@example.com", "bench", "", 0);
  const auto key = access::generateApiKey();
  db->apiKeys().createKey(
      {"00000000-0000-4000-8000-000000000001", user.id, "bench", key.prefix, key.hash, 0, {}, 0, 0},
      10);
  access::KeyDirectory directory(db->apiKeys());
  directory.reload();

  // Budgets far above what a run admits, so every admit takes the counting path.
  const std::int64_t never = std::int64_t{1} << 60;
  access::ReadBudget off_clients(0), off_keys(0), clients(never), keys(never);
  const access::QuotaGuard off(off_clients, off_keys, directory, nullptr);
  const access::QuotaGuard on(clients, keys, directory, nullptr);

  std::vector<http::Request> one{read("198.51.100.7")};
  std::vector<http::Request> many;
  for (int i = 0; i < 10000; ++i) {
    many.push_back(
        read(i % 2 ? "10." + std::to_string(i / 256 % 256) + "." + std::to_string(i % 256) + ".1"
                   : "2001:db8:" + std::to_string(i) + "::1"));
  }
  std::vector<http::Request> keyed{read("198.51.100.7", {{"Authorization", "Bearer " + key.key}})};

  std::vector<double> r_off, r_one, r_many, r_key, r_two;
  for (int run = 0; run < runs; ++run) {
    r_off.push_back(nsPerAdmit(off, one, iterations));
    r_one.push_back(nsPerAdmit(on, one, iterations));
    r_many.push_back(nsPerAdmit(on, many, iterations));
    r_key.push_back(nsPerAdmit(on, keyed, iterations / 4));
    double a = 0, b = 0;
    std::vector<http::Request> one_b{read("198.51.100.7")};
    std::thread other([&] { b = nsPerAdmit(on, one_b, iterations); });
    a = nsPerAdmit(on, one, iterations);
    other.join();
    r_two.push_back((a + b) / 2);
  }
  std::printf(
      "{\"iterations\":%ld,\"runs\":%d,\"ns_per_admit\":{\"off\":%.1f,\"one_client\":%.1f,"
      "\"many_clients\":%.1f,\"api_key\":%.1f,\"two_threads\":%.1f}}\n",
      iterations, runs, median(r_off), median(r_one), median(r_many), median(r_key), median(r_two));
  return 0;
}
