#include "app/ModuleTable.hpp"

#include "access/AccessModule.hpp"
#include "alerts/AlertsModule.hpp"
#include "app/AdminModule.hpp"
#include "app/HealthApi.hpp"
#include "app/Readiness.hpp"
#include "app/ServerModule.hpp"
#include "auth/AuthModule.hpp"
#include "devmode/DevModule.hpp"
#include "ingest/IngestModule.hpp"
#include "items/ItemsModule.hpp"
#include "metrics/MetricsModule.hpp"
#include "portfolio/PortfolioModule.hpp"
#include "quality/QualityModule.hpp"
#include "rates/RatesModule.hpp"
#include "web/ApiDocumentModule.hpp"
#include "web/WebModule.hpp"
#include "ws/WsModule.hpp"

namespace skinpulse::app {
namespace {

using Built = std::unique_ptr<module::Module>;

template <typename Options>
OptionGroup group(const char* title, const char* folder, const common::OptionTable<Options>& table,
                  bool per_instance = false) {
  return OptionGroup{title, folder, common::specsOf(table), per_instance};
}

web::WebOptions webOptions(const Settings& s) {
  web::WebOptions web{
      s.dashboard_enabled, s.share_dir + "/www", s.base_url.rfind("https://", 0) == 0, {}};
  for (const auto& provider : s.identity_providers) web.providers.push_back(provider.name);
  web.dev_mode = s.dev.enabled;
  return web;
}

}  // namespace

const std::vector<ModuleEntry>& moduleTable() {
  static const std::vector<ModuleEntry> table = {
      {"rates",
       [] {
         return std::vector{group("Currency rates ([rates.NAME])", "daemon/rates/RatesOptions.cpp",
                                  rates::ratesOptionTable(), true)};
       },
       [](const Settings&, module::Services& services) -> Built {
         return std::make_unique<rates::RatesModule>(services);
       }},
      {"auth",
       [] {
         return std::vector{group("Authentication and sessions", "daemon/auth/AuthOptions.cpp",
                                  auth::authOptionTable())};
       },
       [](const Settings& s, module::Services& services) -> Built {
         return std::make_unique<auth::AuthModule>(services, s.auth);
       }},
      {"api",
       [] {
         return std::vector{group("API keys and read budgets", "daemon/access/AccessOptions.cpp",
                                  access::accessOptionTable())};
       },
       [](const Settings& s, module::Services& services) -> Built {
         return std::make_unique<access::AccessModule>(services, s.api);
       }},
      {"items",
       [] {
         return std::vector{
             group("Items", "daemon/items/ItemsOptions.cpp", items::itemsOptionTable())};
       },
       [](const Settings& s, module::Services& services) -> Built {
         return std::make_unique<items::ItemsModule>(services, s.items);
       }},
      {"quality",
       [] {
         return std::vector{group("Cross-market quality", "daemon/quality/QualityOptions.cpp",
                                  quality::qualityOptionTable())};
       },
       [](const Settings&, module::Services& services) -> Built {
         return std::make_unique<quality::QualityModule>(services);
       }},
      {"health", nullptr,
       [](const Settings&, module::Services& services) -> Built {
         return std::make_unique<HealthApi>(
             [&report = services.registry.require<ReadinessReport>()] { return report(false); });
       }},
      {"dev",
       [] {
         return std::vector{
             group("Development mode", "daemon/devmode/DevOptions.cpp", devmode::devOptionTable())};
       },
       [](const Settings& s, module::Services&) -> Built {
         if (!s.dev.enabled) return nullptr;
         return std::make_unique<devmode::DevModule>(s.dev);
       }},
      {"web", nullptr,
       [](const Settings& s, module::Services&) -> Built {
         return std::make_unique<web::WebModule>(webOptions(s));
       }},
      {"openapi", nullptr,
       [](const Settings&, module::Services& services) -> Built {
         return std::make_unique<web::ApiDocumentModule>(services.share_dir + "/openapi");
       }},
      {"metrics",
       [] {
         return std::vector{
             group("Metrics", "daemon/metrics/MetricsOptions.cpp", metrics::metricsOptionTable())};
       },
       [](const Settings& s, module::Services& services) -> Built {
         return std::make_unique<metrics::MetricsModule>(services, s.metrics_options,
                                                         s.ingest.retention_days);
       }},
      {"portfolio",
       [] {
         return std::vector{group("Portfolio", "daemon/portfolio/PortfolioOptions.cpp",
                                  portfolio::portfolioOptionTable())};
       },
       [](const Settings& s, module::Services& services) -> Built {
         return std::make_unique<portfolio::PortfolioModule>(services, s.portfolio);
       }},
      {"ws", nullptr,
       [](const Settings&, module::Services& services) -> Built {
         return std::make_unique<ws::WsModule>(services);
       }},
      {"alerts",
       [] {
         return std::vector{
             group("Alerts", "daemon/alerts/AlertsOptions.cpp", alerts::alertsOptionTable())};
       },
       [](const Settings& s, module::Services& services) -> Built {
         return std::make_unique<alerts::AlertsModule>(services, s.alerts);
       }},
      {"http",
       [] {
         return std::vector{group("HTTP server", "daemon/app/ServerModule.cpp", httpOptionTable())};
       },
       [](const Settings& s, module::Services& services) -> Built {
         return std::make_unique<ServerModule>(services, s.http);
       }},
      {"admin",
       [] {
         return std::vector{
             group("Admin listener", "daemon/app/AdminModule.cpp", adminOptionTable())};
       },
       [](const Settings& s, module::Services& services) -> Built {
         if (!s.admin.enabled) return nullptr;
         return std::make_unique<AdminModule>(services, s.admin);
       }},
      {"ingest",
       [] {
         return std::vector{
             group("Ingestion", "daemon/ingest/IngestOptions.cpp", ingest::ingestOptionTable()),
             group("Market sources ([source.NAME])", "daemon/app/SourceOptions.cpp",
                   sourceOptionTable(), true)};
       },
       [](const Settings& s, module::Services& services) -> Built {
         return std::make_unique<ingest::IngestModule>(services, s.ingest);
       }},
  };
  return table;
}

}  // namespace skinpulse::app
