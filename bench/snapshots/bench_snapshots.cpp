// bench_snapshots: the hourly pass of portfolio value snapshots (docs/api.md §15),
// driven through the daemon's own classes, beside a reference in the same process.
//
//   bench_snapshots --share DIR [--users 10000] [--holdings 200] [--items 20000]
//                   [--runs 5] [--json FILE]
//
// Setup (not measured): a temp SQLite database with the migrations, ITEMS catalogue
// items, USERS users each holding HOLDINGS distinct items (quantities 1..5, half of them
// with a cost basis), and two points of one source for every item in LatestPrices.
//
// Measured, interleaved, RUNS times each, every run a new hour (so both write USERS new
// rows, as the real hourly pass does):
//   pass       ValueSnapshots::takeAll: the unit price of every priced catalogue item
//              (reference order, outlier rule), the prices into a temporary table, one
//              INSERT … SELECT … GROUP BY user upsert, the prune — one transaction for
//              the snapshot, one for the prune.
//   reference  the same aggregation in raw SQL with the prices already in a plain
//              table: one INSERT … SELECT … GROUP BY in a transaction. What SQLite itself
//              needs for the sums; the pass cannot beat it, the ratio says what pricing in
//              C++ and the temporary table add.
// Both results are checked equal (sum of total_value and cost_total over the hour).
// Also reported: the pricing alone (PortfolioValuer::pricedItems).

#include "catalog/Catalog.hpp"
#include "portfolio/PortfolioValuer.hpp"
#include "portfolio/ValueSnapshots.hpp"
#include "store/BatchInsert.hpp"
#include "store/Database.hpp"
#include "store/SqlDatabase.hpp"
#include "store/WriteTransaction.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <random>
#include <string>
#include <tuple>
#include <unistd.h>
#include <vector>

using namespace skinpulse;
using Clock = std::chrono::steady_clock;
using Poco::Data::Keywords::bind;
using Poco::Data::Keywords::into;
using Poco::Data::Keywords::now;

namespace {

struct Options {
  std::string share;
  std::size_t users = 10000;
  std::size_t holdings = 200;
  std::size_t items = 20000;
  std::size_t runs = 5;
  std::string json;
};

Options parseOptions(int argc, char** argv) {
  Options o;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string key = argv[i];
    const std::string value = argv[i + 1];
    if (key == "--share") {
      o.share = value;
    } else if (key == "--users") {
      o.users = std::stoul(value);
    } else if (key == "--holdings") {
      o.holdings = std::stoul(value);
    } else if (key == "--items") {
      o.items = std::stoul(value);
    } else if (key == "--runs") {
      o.runs = std::stoul(value);
    } else if (key == "--json") {
      o.json = value;
    } else {
      throw std::runtime_error("unknown option " + key);
    }
  }
  if (o.share.empty()) throw std::runtime_error("--share DIR is required");
  if (o.holdings > o.items) throw std::runtime_error("--holdings must not exceed --items");
  return o;
}

double millisSince(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

// Users, holdings and cost bases straight into the tables: one transaction each.
void seed(store::ConnectionPool& pool, const Options& o, std::vector<std::int64_t>& item_ids) {
  std::mt19937_64 random(42);
  std::vector<std::string> ids, empty_a, empty_b, empty_c;
  std::vector<std::int64_t> created;
  for (std::size_t u = 0; u < o.users; ++u) {
    char id[64];
    std::snprintf(id, sizeof id, "00000000-0000-4000-8000-%012zu", u);
    ids.emplace_back(id);
    empty_a.emplace_back("user" + std::to_string(u) + "@example.com");
    empty_b.emplace_back("");
    empty_c.emplace_back("");
    created.push_back(1000);
  }
  {
    store::WriteTransaction tx(pool);
    store::insertColumns(tx.session(), tx.backend(),
                         "INSERT INTO users (id, email, display_name, avatar_url, created_at)", "",
                         ids, empty_a, empty_b, empty_c, created);
    tx.commit();
  }
  std::vector<std::string> h_user, c_user;
  std::vector<std::int64_t> h_item, h_quantity, h_at, c_item, c_cost, c_updated;
  std::vector<std::int64_t> pool_ids = item_ids;
  for (std::size_t u = 0; u < o.users; ++u) {
    // HOLDINGS distinct items per user: a partial shuffle of the catalogue.
    for (std::size_t k = 0; k < o.holdings; ++k) {
      std::uniform_int_distribution<std::size_t> pick(k, pool_ids.size() - 1);
      std::swap(pool_ids[k], pool_ids[pick(random)]);
      h_user.push_back(ids[u]);
      h_item.push_back(pool_ids[k]);
      h_quantity.push_back(static_cast<std::int64_t>(1 + random() % 5));
      h_at.push_back(1000);
      if (random() % 2 == 0) {
        c_user.push_back(ids[u]);
        c_item.push_back(pool_ids[k]);
        c_cost.push_back(static_cast<std::int64_t>(50 + random() % 100000));
        c_updated.push_back(1000);
      }
    }
  }
  store::WriteTransaction tx(pool);
  store::insertColumns(tx.session(), tx.backend(),
                       "INSERT INTO holdings (user_id, item_id, quantity, imported_at)", "", h_user,
                       h_item, h_quantity, h_at);
  store::insertColumns(tx.session(), tx.backend(),
                       "INSERT INTO holding_costs (user_id, item_id, cost_basis, updated_at)", "",
                       c_user, c_item, c_cost, c_updated);
  // The copy the store keeps in holdings (migration 006), as an import would fill it.
  tx.session() << "UPDATE holdings SET cost_basis = (SELECT c.cost_basis FROM holding_costs c "
                  "WHERE c.user_id = holdings.user_id AND c.item_id = holdings.item_id)",
      now;
  tx.commit();
}

void fillReferencePrices(store::ConnectionPool& pool, std::vector<std::int64_t> ids,
                         std::vector<std::int64_t> prices) {
  store::WriteTransaction tx(pool);
  tx.session() << "CREATE TABLE reference_prices (item_id INTEGER PRIMARY KEY, "
                  "price INTEGER NOT NULL)",
      now;
  store::insertColumns(tx.session(), tx.backend(), "INSERT INTO reference_prices (item_id, price)",
                       "", ids, prices);
  tx.commit();
}

void referencePass(store::ConnectionPool& pool, std::int64_t hour) {
  store::WriteTransaction tx(pool);
  tx.session() << "INSERT INTO portfolio_snapshots (user_id, hour, taken_at, total_value, "
                  "cost_total) SELECT h.user_id, ?, ?, SUM(h.quantity * COALESCE(p.price, 0)), "
                  "SUM(h.quantity * COALESCE(h.cost_basis, 0)) FROM holdings h "
                  "LEFT JOIN reference_prices p ON p.item_id = h.item_id "
                  "WHERE 1 = 1 GROUP BY h.user_id",
      bind(hour), bind(hour), now;
  tx.commit();
}

// Rows, Σ total_value and Σ cost_total of one hour.
std::tuple<std::int64_t, std::int64_t, std::int64_t> sumsOf(store::ConnectionPool& pool,
                                                            std::int64_t hour) {
  std::int64_t value = 0, cost = 0, rows = 0;
  auto lease = pool.read();
  lease.session() << "SELECT COUNT(*), SUM(total_value), SUM(cost_total) FROM "
                     "portfolio_snapshots WHERE hour = ?",
      into(rows), into(value), into(cost), bind(hour), now;
  return {rows, value, cost};
}

}  // namespace

int main(int argc, char** argv) try {
  const Options o = parseOptions(argc, argv);
  const auto temp = std::filesystem::temp_directory_path() /
                    ("bench_snapshots_" + std::to_string(::getpid()) + ".db");
  auto database = store::openDatabase("sqlite://" + temp.string(), o.share + "/sql");
  auto& pool = dynamic_cast<store::SqlDatabase&>(*database).pool();

  std::vector<store::CatalogEntry> entries;
  for (std::size_t i = 0; i < o.items; ++i) {
    entries.push_back({"Bench Item " + std::to_string(i), "", "", "", false, ""});
  }
  database->catalog().seed(entries, 1000);
  catalog::Catalog catalog;
  catalog.reset(database->catalog().allItems());
  std::vector<std::int64_t> item_ids;
  for (const auto& item : database->catalog().allItems()) item_ids.push_back(item.id);

  auto start = Clock::now();
  seed(pool, o, item_ids);
  const double seed_ms = millisSince(start);

  const std::int64_t base = 1'800'000'000 - 1'800'000'000 % 3600;
  prices::LatestPrices latest;
  std::vector<store::PricePoint> points;
  for (const auto id : item_ids) {
    points.push_back({id, "market-a", base - 7200, 100 + id % 5000, 1});
    points.push_back({id, "market-a", base - 60, 110 + id % 5000, 1});
  }
  latest.apply(points);
  const prices::PricePolicy policy({{"market-a", "market-a", sdk::PriceKind::kAsk, true, 60, 0.0}},
                                   {}, true, 3.0);
  const portfolio::PortfolioValuer valuer(catalog, latest, policy);
  portfolio::ValueSnapshots snapshots(database->snapshots(), valuer, 365 * 86400);
  const auto priced = valuer.pricedItems(base);
  fillReferencePrices(pool, priced.item_ids, priced.prices);

  std::vector<double> pass_ms, reference_ms, pricing_ms;
  for (std::size_t run = 0; run < o.runs; ++run) {
    const std::int64_t pass_hour = base + static_cast<std::int64_t>(2 * run) * 3600;
    const std::int64_t ref_hour = pass_hour + 3600;
    // Interleaved, the order swapped every run, so drift hits both.
    for (int side = 0; side < 2; ++side) {
      if ((side == 0) == (run % 2 == 0)) {
        start = Clock::now();
        const auto outcome = snapshots.takeAll(pass_hour + 5);
        pass_ms.push_back(millisSince(start));
        if (outcome.users != o.users) throw std::runtime_error("pass wrote too few users");
      } else {
        start = Clock::now();
        referencePass(pool, ref_hour);
        reference_ms.push_back(millisSince(start));
      }
    }
    if (sumsOf(pool, pass_hour) != sumsOf(pool, ref_hour)) {
      throw std::runtime_error("the pass and the reference disagree");
    }
    start = Clock::now();
    const auto prices = valuer.pricedItems(pass_hour);
    pricing_ms.push_back(millisSince(start));
  }

  char line[512];
  std::snprintf(line, sizeof line,
                "{\"users\":%zu,\"holdings_per_user\":%zu,\"priced_items\":%zu,\"runs\":%zu,"
                "\"seed_ms\":%.0f,\"pass_ms_median\":%.1f,\"reference_ms_median\":%.1f,"
                "\"ratio\":%.2f,\"pricing_ms_median\":%.1f}",
                o.users, o.holdings, priced.item_ids.size(), o.runs, seed_ms, median(pass_ms),
                median(reference_ms), median(pass_ms) / median(reference_ms), median(pricing_ms));
  std::cout << line << std::endl;
  if (!o.json.empty()) std::ofstream(o.json, std::ios::app) << line << "\n";
  database.reset();
  for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(temp.string() + suffix);
  return 0;
} catch (const std::exception& e) {
  std::cerr << "bench_snapshots: " << e.what() << "\n";
  return 1;
}
