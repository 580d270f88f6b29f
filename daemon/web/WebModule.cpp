#include "web/WebModule.hpp"

#include "common/Log.hpp"
#include "http/HttpError.hpp"

namespace skinpulse::web {
namespace {

// The app's routes (§10); later pages reuse them (spreads, alerts) or add their own here.
constexpr const char* kPagePaths[] = {"/",          "/items/:id", "/rankings", "/spreads",
                                      "/portfolio", "/alerts",    "/status"};
// /assets/<path>: the router matches whole segments, so one route per depth.
constexpr const char* kAssetPaths[] = {"/assets/:a", "/assets/:a/:b", "/assets/:a/:b/:c",
                                       "/assets/:a/:b/:c/:d"};

}  // namespace

WebModule::WebModule(WebOptions options) : options_(std::move(options)), files_(options_.root) {}

void WebModule::registerRoutes(http::Router& router) {
  if (!options_.enabled) {
    log::main().info("dashboard: disabled");
    return;
  }
  std::error_code error;
  if (!std::filesystem::is_regular_file(options_.root / "index.html", error)) {
    log::main().warn("dashboard: no index.html in {}; its pages answer 404",
                     options_.root.string());
  } else {
    log::main().info("dashboard: serving {}", options_.root.string());
  }
  for (const char* path : kPagePaths) {
    router.add("GET", path, [this](http::Request& q, http::Response& r) { page(q, r); });
  }
  for (const char* path : kAssetPaths) {
    router.add("GET", path, [this](http::Request& q, http::Response& r) { asset(q, r); });
  }
}

void WebModule::decorate(http::Response& response) const {
  if (response.content_type.rfind("text/html", 0) == 0) {
    response.setHeader("Content-Security-Policy", kContentSecurityPolicy);
  }
  if (options_.https) response.setHeader("Strict-Transport-Security", "max-age=31536000");
}

void WebModule::page(http::Request& request, http::Response& response) const {
  if (!files_.serve(request, "index.html", response)) throw http::HttpError::notFound();
  // Never immutable, whatever the name: it names the other files.
  response.setHeader("Cache-Control", "no-cache");
  if (response.status != 304) response.content_type = "text/html; charset=utf-8";
  response.setHeader("Content-Security-Policy", kContentSecurityPolicy);
  if (options_.https) response.setHeader("Strict-Transport-Security", "max-age=31536000");
}

void WebModule::asset(http::Request& request, http::Response& response) const {
  constexpr std::string_view kPrefix = "/assets/";
  const std::string_view path = request.path;
  if (path.substr(0, kPrefix.size()) != kPrefix) throw http::HttpError::notFound();
  if (!files_.serve(request, path.substr(kPrefix.size()), response)) {
    throw http::HttpError::notFound();
  }
  decorate(response);
}

}  // namespace skinpulse::web
