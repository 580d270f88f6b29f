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
  // Files come from StaticFiles' cache (a stat, a read of a small local file when it
  // changed): inline on the event loop (docs/adr/0010-front-door.md).
  const http::RouteOptions inline_route{.runs_inline = true};
  for (const char* path : kPagePaths) {
    router.add(
        "GET", path, [this](http::Request& q, http::Response& r) { page(q, r); }, inline_route);
  }
  for (const char* path : kAssetPaths) {
    router.add(
        "GET", path, [this](http::Request& q, http::Response& r) { asset(q, r); }, inline_route);
  }
}

void WebModule::decorate(http::Response& response) const {
  if (response.content_type.rfind("text/html", 0) == 0) {
    response.setHeader("Content-Security-Policy", kContentSecurityPolicy);
  }
  if (options_.https) response.setHeader("Strict-Transport-Security", "max-age=31536000");
}

std::string WebModule::personalise(std::string_view html) const {
  constexpr std::string_view kSlot = "<meta name=\"skinpulse-providers\" content=\"\">";
  std::string out(html);
  const auto at = out.find(kSlot);
  if (at == std::string::npos) return out;
  std::string names;
  for (const auto& name : options_.providers) {
    // Instance names are [a-z0-9-] (config sections); anything else is left out.
    if (name.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789-_") != std::string::npos) {
      continue;
    }
    if (!names.empty()) names += ' ';
    names += name;
  }
  out.replace(at, kSlot.size(), "<meta name=\"skinpulse-providers\" content=\"" + names + "\">");
  constexpr std::string_view kDevSlot = "<meta name=\"skinpulse-dev\" content=\"\">";
  const auto dev_at = out.find(kDevSlot);
  if (options_.dev_mode && dev_at != std::string::npos) {
    out.replace(dev_at, kDevSlot.size(), "<meta name=\"skinpulse-dev\" content=\"on\">");
  }
  return out;
}

void WebModule::page(http::Request& request, http::Response& response) const {
  // The stored file, whole and uncompressed: its bytes are personalised below, so the
  // validator and the 304 are about what is actually sent.
  http::Request plain;
  plain.method = request.method;
  plain.path = request.path;
  if (!files_.serve(plain, "index.html", response)) throw http::HttpError::notFound();
  auto body = std::make_shared<const std::string>(personalise(response.bodyView()));
  const std::string etag = strongEtag(*body);
  response.headers.clear();
  response.setHeader("ETag", etag);
  // Never immutable, whatever the name: it names the other files.
  response.setHeader("Cache-Control", "no-cache");
  const auto if_none_match = request.header("If-None-Match");
  if (if_none_match && etagMatches(*if_none_match, etag)) {
    response.status = 304;
    response.content_type.clear();
    response.body.clear();
    response.shared_body.reset();
  } else {
    response.status = 200;
    response.content_type = "text/html; charset=utf-8";
    response.body.clear();
    response.shared_body = std::move(body);
  }
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
