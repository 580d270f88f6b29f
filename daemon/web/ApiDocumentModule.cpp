#include "web/ApiDocumentModule.hpp"

#include "common/Log.hpp"
#include "http/HttpError.hpp"

namespace skinpulse::web {
namespace {
constexpr const char* kFile = "openapi.json";
}  // namespace

ApiDocumentModule::ApiDocumentModule(std::filesystem::path root) : files_(std::move(root)) {}

void ApiDocumentModule::registerRoutes(http::Router& router) {
  std::error_code error;
  if (!std::filesystem::is_regular_file(files_.root() / kFile, error)) {
    // A packaging fault, not a reason to refuse to serve the API itself.
    log::main().warn("openapi: no {} in {}; GET /api/v1/openapi.json answers 404", kFile,
                     files_.root().string());
  }
  // A stat and, when the file changed, a read of a local file: inline like the dashboard.
  router.add(
      "GET", "/api/v1/openapi.json",
      [this](http::Request& q, http::Response& r) { document(q, r); },
      http::RouteOptions{.runs_inline = true});
}

void ApiDocumentModule::document(http::Request& request, http::Response& response) const {
  if (!files_.serve(request, kFile, response)) throw http::HttpError::notFound();
}

}  // namespace skinpulse::web
