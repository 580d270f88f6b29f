#pragma once

// ApiDocumentModule: GET /api/v1/openapi.json (docs/api.md §16), the OpenAPI 3.1 document
// of the public API, a source file of the repository (share/openapi/openapi.json,
// installed /usr/share/skinpulse/openapi) served as it is: a strong ETag (304 on
// If-None-Match), `Cache-Control: no-cache` (clients revalidate, the document changes
// with an upgrade), its .gz sibling to clients that accept gzip. Not part of the
// dashboard: `[dashboard] enabled = false` leaves it on.

#include "module/Module.hpp"
#include "web/StaticFiles.hpp"

#include <filesystem>

namespace skinpulse::web {

class ApiDocumentModule final : public module::Module {
 public:
  /// `root`: the directory holding openapi.json (share_dir + "/openapi").
  explicit ApiDocumentModule(std::filesystem::path root);

  std::string_view name() const override { return "openapi"; }
  void registerRoutes(http::Router& router) override;

  /// The document for GET /api/v1/openapi.json (200 or 304); 404 not_found without it.
  void document(http::Request& request, http::Response& response) const;

 private:
  StaticFiles files_;
};

}  // namespace skinpulse::web
