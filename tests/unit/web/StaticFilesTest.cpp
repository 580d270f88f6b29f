// The dashboard's static server (docs/api.md §9): types, strong ETags and 304,
// caching of hashed names, precompressed siblings, paths outside the root refused, the
// app's paths answering index.html with the CSP, and `enabled = false`.

#include "http/Dispatcher.hpp"
#include "web/StaticFiles.hpp"
#include "web/WebModule.hpp"

#include <Poco/JSON/Parser.h>
#include <cppunit/extensions/HelperMacros.h>

#include <filesystem>
#include <fstream>
#include <unistd.h>

using namespace skinpulse;
namespace fs = std::filesystem;

namespace {

void write(const fs::path& path, const std::string& bytes) {
  fs::create_directories(path.parent_path());
  std::ofstream(path, std::ios::binary) << bytes;
}

std::string header(const http::Response& response, const std::string& name) {
  for (const auto& [key, value] : response.headers) {
    if (strcasecmp(key.c_str(), name.c_str()) == 0) return value;
  }
  return {};
}

}  // namespace

class StaticFilesTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(StaticFilesTest);
  CPPUNIT_TEST(contentTypesByExtension);
  CPPUNIT_TEST(hashedNames);
  CPPUNIT_TEST(etagAndConditionalRequests);
  CPPUNIT_TEST(servesAssetsWithTypeEtagAndCaching);
  CPPUNIT_TEST(answers304OnIfNoneMatch);
  CPPUNIT_TEST(servesPrecompressedSiblingsWhenAccepted);
  CPPUNIT_TEST(refusesPathsOutsideTheRoot);
  CPPUNIT_TEST(appPathsAnswerIndexWithCsp);
  CPPUNIT_TEST(disabledMeansNotFound);
  CPPUNIT_TEST(apiPathsStayNotFound);
  CPPUNIT_TEST(indexNamesTheEnabledProviders);
  CPPUNIT_TEST(indexSaysWhetherDevelopmentModeIsOn);
  CPPUNIT_TEST_SUITE_END();

  fs::path dir_;
  fs::path root_;

  http::Response get(const http::Router& router, const std::string& path,
                     http::Headers headers = {}) {
    http::Request request;
    request.method = "GET";
    request.path = path;
    request.headers = std::move(headers);
    http::Response response;
    http::Dispatcher(router).dispatch(request, response);
    return response;
  }

  http::Router routerFor(bool enabled, std::unique_ptr<web::WebModule>& keep) {
    http::Router router;
    keep = std::make_unique<web::WebModule>(web::WebOptions{enabled, root_, false, {}});
    keep->registerRoutes(router);
    return router;
  }

 public:
  void setUp() override {
    dir_ = fs::temp_directory_path() / ("skinpulse-web-" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    root_ = dir_ / "www";
    write(root_ / "index.html", "<!doctype html><title>skinpulse</title>");
    write(root_ / "app.js", "export const a = 1;\n");
    write(root_ / "style.css", "body{}\n");
    write(root_ / "vendor" / "uPlot.0a1b2c3d.min.js", "/* uPlot */\n");
    write(root_ / "vendor" / "LICENSE", "MIT\n");
    write(root_ / "big.js", "plain");
    write(root_ / "big.js.gz", "gzipped");
    write(root_ / "big.js.br", "brotli");
    write(root_ / ".hidden", "secret");
    write(dir_ / "secret.txt", "outside");
    fs::create_symlink(dir_ / "secret.txt", root_ / "link.txt");
  }

  void tearDown() override { fs::remove_all(dir_); }

  void contentTypesByExtension() {
    CPPUNIT_ASSERT_EQUAL(std::string("text/html; charset=utf-8"), web::contentTypeOf("a.html"));
    CPPUNIT_ASSERT_EQUAL(std::string("text/javascript; charset=utf-8"),
                         web::contentTypeOf("x/app.js"));
    CPPUNIT_ASSERT_EQUAL(std::string("text/css; charset=utf-8"), web::contentTypeOf("S.CSS"));
    CPPUNIT_ASSERT_EQUAL(std::string("image/svg+xml"), web::contentTypeOf("logo.svg"));
    CPPUNIT_ASSERT_EQUAL(std::string("image/png"), web::contentTypeOf("a.png"));
    CPPUNIT_ASSERT_EQUAL(std::string("text/plain; charset=utf-8"),
                         web::contentTypeOf("vendor/LICENSE"));
    CPPUNIT_ASSERT_EQUAL(std::string("application/octet-stream"), web::contentTypeOf("a.bin"));
  }

  void hashedNames() {
    CPPUNIT_ASSERT(web::isContentHashed("uPlot.0a1b2c3d.min.js"));
    CPPUNIT_ASSERT(web::isContentHashed("vendor/app.12345678.css"));
    CPPUNIT_ASSERT(!web::isContentHashed("app.js"));
    CPPUNIT_ASSERT(!web::isContentHashed("12345678.js"));    // the name itself, not a hash part
    CPPUNIT_ASSERT(!web::isContentHashed("a.deadbeef.js"));  // no digit: a word, not a hash
  }

  void etagAndConditionalRequests() {
    const auto tag = web::strongEtag("abc");
    CPPUNIT_ASSERT(tag.front() == '"' && tag.back() == '"' && tag.size() == 34);
    CPPUNIT_ASSERT(tag != web::strongEtag("abd"));
    CPPUNIT_ASSERT(web::etagMatches(tag, tag));
    CPPUNIT_ASSERT(web::etagMatches("\"x\", " + tag, tag));
    CPPUNIT_ASSERT(web::etagMatches("W/" + tag, tag));
    CPPUNIT_ASSERT(web::etagMatches("*", tag));
    CPPUNIT_ASSERT(!web::etagMatches("\"x\"", tag));
    CPPUNIT_ASSERT(web::acceptsEncoding("gzip, deflate, br", "br"));
    CPPUNIT_ASSERT(!web::acceptsEncoding("gzip;q=1, br;q=0", "br"));
    CPPUNIT_ASSERT(web::acceptsEncoding("*", "gzip"));
    CPPUNIT_ASSERT(!web::acceptsEncoding("", "gzip"));
  }

  void servesAssetsWithTypeEtagAndCaching() {
    std::unique_ptr<web::WebModule> module;
    const auto router = routerFor(true, module);
    auto response = get(router, "/assets/app.js");
    CPPUNIT_ASSERT_EQUAL(200, response.status);
    CPPUNIT_ASSERT_EQUAL(std::string("text/javascript; charset=utf-8"), response.content_type);
    CPPUNIT_ASSERT_EQUAL(std::string("export const a = 1;\n"), std::string(response.bodyView()));
    CPPUNIT_ASSERT_EQUAL(web::strongEtag("export const a = 1;\n"), header(response, "ETag"));
    CPPUNIT_ASSERT_EQUAL(std::string("no-cache"), header(response, "Cache-Control"));
    CPPUNIT_ASSERT(header(response, "Content-Security-Policy").empty());

    response = get(router, "/assets/vendor/uPlot.0a1b2c3d.min.js");
    CPPUNIT_ASSERT_EQUAL(200, response.status);
    CPPUNIT_ASSERT_EQUAL(std::string("public, max-age=31536000, immutable"),
                         header(response, "Cache-Control"));
    CPPUNIT_ASSERT_EQUAL(std::string("text/css; charset=utf-8"),
                         get(router, "/assets/style.css").content_type);
    CPPUNIT_ASSERT_EQUAL(std::string("text/plain; charset=utf-8"),
                         get(router, "/assets/vendor/LICENSE").content_type);
  }

  void answers304OnIfNoneMatch() {
    std::unique_ptr<web::WebModule> module;
    const auto router = routerFor(true, module);
    const auto first = get(router, "/assets/app.js");
    const auto tag = header(first, "ETag");
    auto again = get(router, "/assets/app.js", {{"If-None-Match", tag}});
    CPPUNIT_ASSERT_EQUAL(304, again.status);
    CPPUNIT_ASSERT(again.bodyView().empty());
    CPPUNIT_ASSERT_EQUAL(tag, header(again, "ETag"));
    again = get(router, "/assets/app.js", {{"If-None-Match", "\"other\""}});
    CPPUNIT_ASSERT_EQUAL(200, again.status);
    // A changed file gets a new tag.
    write(root_ / "app.js", "export const a = 2; // longer\n");
    again = get(router, "/assets/app.js", {{"If-None-Match", tag}});
    CPPUNIT_ASSERT_EQUAL(200, again.status);
    CPPUNIT_ASSERT(header(again, "ETag") != tag);
    // index.html too.
    const auto index = get(router, "/");
    CPPUNIT_ASSERT_EQUAL(304, get(router, "/", {{"If-None-Match", header(index, "ETag")}}).status);
  }

  void servesPrecompressedSiblingsWhenAccepted() {
    std::unique_ptr<web::WebModule> module;
    const auto router = routerFor(true, module);
    auto response = get(router, "/assets/big.js", {{"Accept-Encoding", "gzip, br"}});
    CPPUNIT_ASSERT_EQUAL(std::string("brotli"), std::string(response.bodyView()));
    CPPUNIT_ASSERT_EQUAL(std::string("br"), header(response, "Content-Encoding"));
    CPPUNIT_ASSERT_EQUAL(std::string("text/javascript; charset=utf-8"), response.content_type);
    CPPUNIT_ASSERT_EQUAL(std::string("Accept-Encoding"), header(response, "Vary"));
    const auto br_tag = header(response, "ETag");
    response = get(router, "/assets/big.js", {{"Accept-Encoding", "gzip"}});
    CPPUNIT_ASSERT_EQUAL(std::string("gzipped"), std::string(response.bodyView()));
    CPPUNIT_ASSERT_EQUAL(std::string("gzip"), header(response, "Content-Encoding"));
    CPPUNIT_ASSERT(header(response, "ETag") != br_tag);
    response = get(router, "/assets/big.js");
    CPPUNIT_ASSERT_EQUAL(std::string("plain"), std::string(response.bodyView()));
    CPPUNIT_ASSERT(header(response, "Content-Encoding").empty());
    CPPUNIT_ASSERT_EQUAL(std::string("Accept-Encoding"), header(response, "Vary"));
    response = get(router, "/assets/app.js", {{"Accept-Encoding", "gzip, br"}});
    CPPUNIT_ASSERT(header(response, "Content-Encoding").empty());
  }

  void refusesPathsOutsideTheRoot() {
    CPPUNIT_ASSERT(!web::resolveUnder(root_, "../secret.txt"));
    CPPUNIT_ASSERT(!web::resolveUnder(root_, "vendor/../../secret.txt"));
    CPPUNIT_ASSERT(!web::resolveUnder(root_, "/etc/passwd"));
    CPPUNIT_ASSERT(!web::resolveUnder(root_, "link.txt"));  // a symlink leading out
    CPPUNIT_ASSERT(!web::resolveUnder(root_, ".hidden"));
    CPPUNIT_ASSERT(!web::resolveUnder(root_, "vendor//LICENSE"));
    CPPUNIT_ASSERT(!web::resolveUnder(root_, "..\\secret.txt"));
    CPPUNIT_ASSERT(web::resolveUnder(root_, "vendor/LICENSE").has_value());

    std::unique_ptr<web::WebModule> module;
    const auto router = routerFor(true, module);
    for (const char* path :
         {"/assets/../secret.txt", "/assets/vendor/../../secret.txt", "/assets/link.txt",
          "/assets/.hidden", "/assets/missing.js", "/assets/vendor", "/assets/%2e%2e/secret.txt"}) {
      const auto response = get(router, path);
      CPPUNIT_ASSERT_EQUAL_MESSAGE(path, 404, response.status);
      CPPUNIT_ASSERT_EQUAL_MESSAGE(path, std::string("application/problem+json"),
                                   response.content_type);
    }
  }

  void appPathsAnswerIndexWithCsp() {
    std::unique_ptr<web::WebModule> module;
    const auto router = routerFor(true, module);
    for (const char* path :
         {"/", "/items/42", "/rankings", "/spreads", "/portfolio", "/alerts", "/status"}) {
      const auto response = get(router, path);
      CPPUNIT_ASSERT_EQUAL_MESSAGE(path, 200, response.status);
      CPPUNIT_ASSERT_EQUAL_MESSAGE(path, std::string("text/html; charset=utf-8"),
                                   response.content_type);
      CPPUNIT_ASSERT_EQUAL(std::string("<!doctype html><title>skinpulse</title>"),
                           std::string(response.bodyView()));
      CPPUNIT_ASSERT_EQUAL(std::string(web::kContentSecurityPolicy),
                           header(response, "Content-Security-Policy"));
      CPPUNIT_ASSERT_EQUAL(std::string("no-cache"), header(response, "Cache-Control"));
      CPPUNIT_ASSERT(header(response, "Strict-Transport-Security").empty());
    }
    http::Router https;
    web::WebModule secure(web::WebOptions{true, root_, true, {}});
    secure.registerRoutes(https);
    CPPUNIT_ASSERT_EQUAL(std::string("max-age=31536000"),
                         header(get(https, "/status"), "Strict-Transport-Security"));
  }

  void disabledMeansNotFound() {
    std::unique_ptr<web::WebModule> module;
    const auto router = routerFor(false, module);
    for (const char* path : {"/", "/items/1", "/status", "/assets/app.js"}) {
      const auto response = get(router, path);
      CPPUNIT_ASSERT_EQUAL_MESSAGE(path, 404, response.status);
      CPPUNIT_ASSERT_EQUAL(std::string("not_found"), Poco::JSON::Parser()
                                                         .parse(response.body)
                                                         .extract<Poco::JSON::Object::Ptr>()
                                                         ->getValue<std::string>("code"));
    }
  }

  void apiPathsStayNotFound() {
    std::unique_ptr<web::WebModule> module;
    const auto router = routerFor(true, module);
    for (const char* path : {"/api/v1/nothing", "/items", "/items/1/x", "/favicon.ico"}) {
      CPPUNIT_ASSERT_EQUAL_MESSAGE(path, 404, get(router, path).status);
    }
  }

  void indexNamesTheEnabledProviders() {
    const std::string slot = "<meta name=\"skinpulse-providers\" content=\"\">";
    write(root_ / "index.html", "<head>" + slot + "</head>");
    http::Router router;
    web::WebModule module(web::WebOptions{true, root_, false, {"idp-a", "gameid", "bad\"name"}});
    module.registerRoutes(router);
    const auto response = get(router, "/portfolio", {{"Accept-Encoding", "gzip"}});
    CPPUNIT_ASSERT_EQUAL(200, response.status);
    const std::string body(response.bodyView());
    CPPUNIT_ASSERT_EQUAL(
        std::string("<head><meta name=\"skinpulse-providers\" content=\"idp-a gameid\"></head>"),
        body);
    CPPUNIT_ASSERT_EQUAL(web::strongEtag(body), header(response, "ETag"));
    CPPUNIT_ASSERT_EQUAL(304, get(router, "/", {{"If-None-Match", web::strongEtag(body)}}).status);
    CPPUNIT_ASSERT_EQUAL(
        200,
        get(router, "/", {{"If-None-Match", web::strongEtag("<head>" + slot + "</head>")}}).status);
  }

  void indexSaysWhetherDevelopmentModeIsOn() {
    const std::string slots =
        "<meta name=\"skinpulse-providers\" content=\"\">"
        "<meta name=\"skinpulse-dev\" content=\"\">";
    write(root_ / "index.html", slots);
    for (const bool dev : {false, true}) {
      http::Router router;
      web::WebOptions options{true, root_, false, {"gameid"}};
      options.dev_mode = dev;
      web::WebModule module(options);
      module.registerRoutes(router);
      const std::string body(get(router, "/portfolio").bodyView());
      const std::string meta = dev ? "<meta name=\"skinpulse-dev\" content=\"on\">"
                                   : "<meta name=\"skinpulse-dev\" content=\"\">";
      CPPUNIT_ASSERT_MESSAGE(body, body.find(meta) != std::string::npos);
    }
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(StaticFilesTest);
