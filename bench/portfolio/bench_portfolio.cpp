// bench_portfolio: the portfolio paths of the daemon, driven through its own classes.
//
//   bench_portfolio --share DIR [--database URL] [--assets 5000] [--page-size 1000]
//                   [--holdings 1000] [--runs 7] [--valuations 200] [--json FILE]
//
// Measured:
//   import     ImportService::run for one user: every inventory page fetched through the
//              host HTTP client (PocoHttpClient) from a local fake platform (a Poco HTTP
//              server in this process serving pre-rendered pages of the documented shape,
//              one description of ~700 bytes per asset, as the real platform sends),
//              parsed, matched against the seeded catalogue and written in one
//              transaction, with the cooldown lock in the embedded shared store. The
//              cooldown is 0, so every run imports again. Median of RUNS; also the fetch
//              alone (InventoryFetcher::fetch) and the parse alone (parseInventoryPage on
//              the same pages in memory) to show where the time goes.
//   valuation  GET /api/v1/portfolio through PortfolioApi::show for a user holding
//              HOLDINGS items, each with prices of two sources: holdings read from the
//              store, valued at current_price, sorted and rendered. p50 and p99 of VALUATIONS.
//
// URL: `sqlite` (default: a temp file, deleted at the end) or `sqlite://PATH`.

#include "catalog/Catalog.hpp"
#include "catalog/CatalogSeeder.hpp"
#include "common/RandomToken.hpp"
#include "common/Time.hpp"
#include "net/PocoHttpClient.hpp"
#include "portfolio/ImportLock.hpp"
#include "portfolio/ImportService.hpp"
#include "portfolio/ImportThrottle.hpp"
#include "portfolio/InventoryPage.hpp"
#include "portfolio/InventorySource.hpp"
#include "portfolio/PortfolioApi.hpp"
#include "state/DatabaseSharedStore.hpp"
#include "store/Database.hpp"
#include "store/SqlDatabase.hpp"

#include <Poco/Net/HTTPRequestHandler.h>
#include <Poco/Net/HTTPRequestHandlerFactory.h>
#include <Poco/Net/HTTPServer.h>
#include <Poco/Net/HTTPServerRequest.h>
#include <Poco/Net/HTTPServerResponse.h>
#include <Poco/Net/ServerSocket.h>
#include <Poco/URI.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <unistd.h>

namespace {

using namespace skinpulse;
using Clock = std::chrono::steady_clock;
constexpr const char* kPlatformId = "76561197960287930";

struct Options {
  std::string share;
  std::string database = "sqlite";
  std::size_t assets = 5000;
  std::size_t page_size = 1000;
  std::size_t holdings = 1000;
  std::size_t runs = 7;
  std::size_t valuations = 200;
  std::string json;
};

[[noreturn]] void usage(const std::string& problem) {
  std::cerr << "bench_portfolio: " << problem
            << "\nusage: bench_portfolio --share DIR [--database sqlite|sqlite://PATH]"
               " [--assets 5000] [--page-size 1000] [--holdings 1000] [--runs 7]"
               " [--valuations 200] [--json FILE]\n";
  std::exit(2);
}

Options parseOptions(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) usage(arg + " needs a value");
      return argv[++i];
    };
    auto count = [&]() { return static_cast<std::size_t>(std::stoul(value())); };
    if (arg == "--share")
      o.share = value();
    else if (arg == "--database")
      o.database = value();
    else if (arg == "--assets")
      o.assets = count();
    else if (arg == "--page-size")
      o.page_size = count();
    else if (arg == "--holdings")
      o.holdings = count();
    else if (arg == "--runs")
      o.runs = count();
    else if (arg == "--valuations")
      o.valuations = count();
    else if (arg == "--json")
      o.json = value();
    else
      usage("unknown option " + arg);
  }
  if (o.share.empty()) usage("--share is required");
  if (o.page_size == 0 || o.page_size > 1000) usage("--page-size must be 1..1000");
  if (o.runs == 0 || o.valuations == 0) usage("--runs and --valuations must be positive");
  return o;
}

double millisSince(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

double percentile(std::vector<double> v, double p) {
  std::sort(v.begin(), v.end());
  const auto index = static_cast<std::size_t>(p * static_cast<double>(v.size() - 1) + 0.5);
  return v[std::min(index, v.size() - 1)];
}

std::string jsonString(const std::string& text) {
  std::string out = "\"";
  for (const char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

/// Pages of the documented shape: one asset and one description (~700 bytes, like the
/// real ones with their tags and icon hash) per distinct catalogue name.
std::vector<std::string> renderPages(const std::vector<store::ItemRecord>& items,
                                     std::size_t assets, std::size_t page_size) {
  std::vector<std::string> pages;
  for (std::size_t begin = 0; begin < assets; begin += page_size) {
    const std::size_t end = std::min(assets, begin + page_size);
    std::string a = "[", d = "[";
    for (std::size_t i = begin; i < end; ++i) {
      const std::string id = std::to_string(41300000000 + i);
      const std::string classid = std::to_string(900000 + i);
      const std::string& name = items[i % items.size()].market_hash_name;
      a += (i == begin ? "" : ",") + std::string(R"({"appid":730,"contextid":"2","assetid":")") +
           id + R"(","classid":")" + classid + R"(","instanceid":"0","amount":"1"})";
      d +=
          (i == begin ? "" : ",") + std::string(R"({"appid":730,"classid":")") + classid +
          R"(","instanceid":"0","currency":0,"background_color":"","icon_url":")" +
          std::string(180, 'x') +
          R"(","descriptions":[{"type":"html","value":"Exterior: Field-Tested","name":"exterior_wear"}],)"
          R"("tradable":1,"name":)" +
          jsonString(name) +
          R"(,"name_color":"D2D2D2","type":"Mil-Spec Grade Rifle","market_name":)" +
          jsonString(name) + R"(,"market_hash_name":)" + jsonString(name) +
          R"(,"commodity":0,"marketable":1,"tags":[{"category":"Type","internal_name":"CSGO_Type_Rifle",)"
          R"("localized_category_name":"Type","localized_tag_name":"Rifle"},{"category":"Rarity",)"
          R"("internal_name":"Rarity_Rare_Weapon","localized_category_name":"Quality","localized_tag_name":"Mil-Spec Grade"}]})";
    }
    std::string page = R"({"assets":)" + a + R"(],"descriptions":)" + d +
                       R"(],"total_inventory_count":)" + std::to_string(assets) + R"(,"success":1)";
    if (end < assets) {
      page += R"(,"more_items":1,"last_assetid":")" + std::to_string(41300000000 + end - 1) + "\"";
    }
    pages.push_back(page + "}");
  }
  return pages;
}

/// The fake platform: `start_assetid` picks the page.
class PagesHandler final : public Poco::Net::HTTPRequestHandler {
 public:
  PagesHandler(const std::vector<std::string>& pages, std::size_t page_size)
      : pages_(pages), page_size_(page_size) {}
  void handleRequest(Poco::Net::HTTPServerRequest& request,
                     Poco::Net::HTTPServerResponse& response) override {
    std::size_t index = 0;
    for (const auto& [name, value] : Poco::URI(request.getURI()).getQueryParameters()) {
      if (name == "start_assetid") {
        index = (std::stoull(value) - 41300000000 + 1) / page_size_;
      }
    }
    response.setContentType("application/json");
    response.sendBuffer(pages_[index].data(), pages_[index].size());
  }

 private:
  const std::vector<std::string>& pages_;
  std::size_t page_size_;
};

class PagesFactory final : public Poco::Net::HTTPRequestHandlerFactory {
 public:
  PagesFactory(const std::vector<std::string>& pages, std::size_t page_size)
      : pages_(pages), page_size_(page_size) {}
  Poco::Net::HTTPRequestHandler* createRequestHandler(
      const Poco::Net::HTTPServerRequest&) override {
    return new PagesHandler(pages_, page_size_);
  }

 private:
  const std::vector<std::string>& pages_;
  std::size_t page_size_;
};

}  // namespace

int main(int argc, char** argv) {
  const Options o = parseOptions(argc, argv);
  std::string url = o.database;
  std::filesystem::path temp;
  if (url == "sqlite") {
    temp = std::filesystem::temp_directory_path() /
           ("bench_portfolio_" + std::to_string(::getpid()) + ".db");
    url = "sqlite://" + temp.string();
  }
  auto database = store::openDatabase(url, o.share + "/sql");
  catalog::seedCatalog(database->catalog(), o.share + "/catalog/items.jsonl");
  catalog::Catalog catalog;
  catalog.reset(database->catalog().allItems());
  const auto items = database->catalog().allItems();
  if (items.size() < std::max(o.assets, o.holdings)) usage("the catalogue is too small");

  // The fake platform.
  const auto pages = renderPages(items, o.assets, o.page_size);
  std::size_t page_bytes = 0;
  for (const auto& page : pages) page_bytes = std::max(page_bytes, page.size());
  Poco::Net::ServerSocket socket(Poco::Net::SocketAddress("127.0.0.1", 0));
  Poco::Net::HTTPServer server(new PagesFactory(pages, o.page_size), socket,
                               new Poco::Net::HTTPServerParams);
  server.start();
  const std::string base =
      "http://127.0.0.1:" + std::to_string(socket.address().port()) + "/inventory";

  // The daemon's parts, as PortfolioModule assembles them.
  net::PocoHttpClient http;
  portfolio::InventoryFetchOptions fetch;
  fetch.base_url = base;
  portfolio::PlatformInventorySource inventory(portfolio::InventoryFetcher(http, fetch));
  state::DatabaseSharedStore shared(dynamic_cast<store::SqlDatabase&>(*database).pool());
  portfolio::ImportLock lock(shared, [] { return common::randomToken(16); });
  portfolio::ImportOptions import_options;
  import_options.cooldown = std::chrono::seconds(0);
  portfolio::ImportThrottle throttle(shared, portfolio::ImportThrottleOptions{},
                                     [] { return time::nowMillis(); });
  portfolio::ImportService imports(database->users(), database->holdings(), catalog, inventory,
                                   lock, throttle, import_options,
                                   [] { return time::nowSeconds(); });
  const auto user = database->users().createUser("bench@example.com", "Bench", "", 0);
  database->users().linkGameId({user.id, kPlatformId, 0});

  std::vector<double> import_ms, fetch_ms, parse_ms;
  std::int64_t imported = 0;
  for (std::size_t run = 0; run < o.runs; ++run) {
    auto start = Clock::now();
    for (const auto& page : pages) portfolio::parseInventoryPage(page);
    parse_ms.push_back(millisSince(start));
    start = Clock::now();
    inventory.fetch(kPlatformId, net::RequestBudget::Priority::kUser);
    fetch_ms.push_back(millisSince(start));
    start = Clock::now();
    imported = imports.run(user.id).imported_units;
    import_ms.push_back(millisSince(start));
  }
  server.stop();

  // Valuation: a second user holding HOLDINGS items, each priced by two sources.
  const auto holder = database->users().createUser("holder@example.com", "Holder", "", 0);
  std::vector<store::HoldingRecord> holdings;
  std::vector<store::PricePoint> points;
  const std::int64_t now = time::nowSeconds();
  for (std::size_t i = 0; i < o.holdings; ++i) {
    const std::int64_t id = items[i].id;
    holdings.push_back({id, static_cast<std::int64_t>(1 + i % 7), 0});
    for (const char* source : {"market-a", "market-b"}) {
      points.push_back({id, source, now - 3600, 100 + static_cast<std::int64_t>(i), 1});
      points.push_back({id, source, now - 60, 110 + static_cast<std::int64_t>(i), 1});
    }
  }
  database->holdings().replaceHoldings(holder.id, holdings, now);
  database->prices().insert(points);
  prices::LatestPrices latest;
  latest.reset(database->prices().latestPerItemSource());
  const prices::PricePolicy policy({{"market-a", "market-a", sdk::PriceKind::kAsk, true, 60, 0.0},
                                    {"market-b", "market-b", sdk::PriceKind::kAsk, true, 60, 0.0}},
                                   {}, true, 3.0);
  const portfolio::PortfolioValuer valuer(catalog, latest, policy);
  portfolio::ValueSnapshots snapshots(database->snapshots(), valuer, 365 * 86400);
  portfolio::PortfolioApi api(imports, database->holdings(), valuer, snapshots,
                              currency::RateBook::none(), catalog, database->users());
  std::vector<double> valuation_ms;
  std::size_t body_bytes = 0;
  for (std::size_t i = 0; i < o.valuations; ++i) {
    http::Request request;
    request.method = "GET";
    request.path = "/api/v1/portfolio";
    request.session.state = http::SessionContext::State::kActive;
    request.session.user_id = holder.id;
    http::Response response;
    const auto start = Clock::now();
    api.show(request, response);
    valuation_ms.push_back(millisSince(start));
    body_bytes = response.body.size();
  }

  char line[512];
  std::snprintf(line, sizeof line,
                "{\"assets\":%zu,\"pages\":%zu,\"page_bytes\":%zu,\"imported\":%lld,"
                "\"import_ms_median\":%.1f,\"fetch_ms_median\":%.1f,\"parse_ms_median\":%.1f,"
                "\"holdings\":%zu,"
                "\"valuation_ms_p50\":%.2f,\"valuation_ms_p99\":%.2f,\"body_bytes\":%zu}",
                o.assets, pages.size(), page_bytes, static_cast<long long>(imported),
                percentile(import_ms, 0.5), percentile(fetch_ms, 0.5), percentile(parse_ms, 0.5),
                o.holdings, percentile(valuation_ms, 0.5), percentile(valuation_ms, 0.99),
                body_bytes);
  std::cout << line << std::endl;
  if (!o.json.empty()) std::ofstream(o.json, std::ios::app) << line << "\n";
  database.reset();
  if (!temp.empty()) {
    for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(temp.string() + suffix);
  }
  return 0;
}
