#include "access/ApiKey.hpp"
#include "access/KeysApi.hpp"
#include "common/JsonBody.hpp"
#include "http/HttpError.hpp"
#include "store/Database.hpp"

#include <Poco/JSON/Parser.h>
#include <cppunit/extensions/HelperMacros.h>

#include <memory>

using namespace skinpulse;

class KeysApiTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(KeysApiTest);
  CPPUNIT_TEST(testCreateShowsTheKeyOnceAndStoresItsHash);
  CPPUNIT_TEST(testListShowsUsageIncludingUnflushed);
  CPPUNIT_TEST(testLimitIs409);
  CPPUNIT_TEST(testRevokeIsImmediateHereAndOnlyForTheHolder);
  CPPUNIT_TEST(testNameRules);
  CPPUNIT_TEST_SUITE_END();

 public:
  void setUp() override {
    db_ = store::openDatabase("sqlite://:memory:", std::string(SKINPULSE_SHARE_DIR) + "/sql");
    alice_ = db_->users().createUser("a@example.com", "A", "", 1000).id;
    bob_ = db_->users().createUser("b@example.com", "B", "", 1000).id;
    directory_ = std::make_unique<access::KeyDirectory>(db_->apiKeys());
    directory_->reload();
    api_ = std::make_unique<access::KeysApi>(db_->apiKeys(), *directory_, 2,
                                             [] { return std::int64_t{1700000000}; });
  }

  void testCreateShowsTheKeyOnceAndStoresItsHash() {
    const auto created = create(alice_, R"({"name":"  my bot  "})");
    CPPUNIT_ASSERT_EQUAL(201, created.status);
    const auto body = parse(created.body);
    const std::string key = body->getValue<std::string>("key");
    CPPUNIT_ASSERT(access::isWellFormedApiKey(key));
    CPPUNIT_ASSERT_EQUAL(std::string("my bot"), body->getValue<std::string>("name"));
    CPPUNIT_ASSERT_EQUAL(key.substr(0, 12), body->getValue<std::string>("prefix"));
    CPPUNIT_ASSERT_EQUAL(std::string("2023-11-14T22:13:20Z"),
                         body->getValue<std::string>("created_at"));
    const auto stored = db_->apiKeys().keysOf(alice_).at(0);
    CPPUNIT_ASSERT_EQUAL(access::hashApiKey(key), stored.secret_hash);
    // Known to this daemon at once, and the list never shows the key again.
    CPPUNIT_ASSERT(directory_->find(access::hashApiKey(key)));
    CPPUNIT_ASSERT(list(alice_).find(key) == std::string::npos);
  }

  void testListShowsUsageIncludingUnflushed() {
    const std::string key =
        parse(create(alice_, R"({"name":"a"})").body)->getValue<std::string>("key");
    const auto entry = directory_->find(access::hashApiKey(key));
    access::KeyDirectory::count(*entry, false, 1700000100);
    access::KeyDirectory::count(*entry, true, 1700000200);
    auto keys = parse(list(alice_))->getArray("keys");
    auto first = keys->getObject(0);
    CPPUNIT_ASSERT_EQUAL(1, first->getValue<int>("requests"));
    CPPUNIT_ASSERT_EQUAL(1, first->getValue<int>("rate_limited"));
    CPPUNIT_ASSERT_EQUAL(std::string("2023-11-14T22:16:40Z"),
                         first->getValue<std::string>("last_used_at"));
    directory_->flush();  // the same numbers once written: not counted twice
    first = parse(list(alice_))->getArray("keys")->getObject(0);
    CPPUNIT_ASSERT_EQUAL(1, first->getValue<int>("requests"));
    CPPUNIT_ASSERT_EQUAL(std::size_t{0}, parse(list(bob_))->getArray("keys")->size());
  }

  void testLimitIs409() {
    CPPUNIT_ASSERT_EQUAL(201, create(alice_, R"({"name":"1"})").status);
    CPPUNIT_ASSERT_EQUAL(201, create(alice_, R"({"name":"2"})").status);
    CPPUNIT_ASSERT_EQUAL(std::string("api_key_limit"), create(alice_, R"({"name":"3"})").code);
    CPPUNIT_ASSERT_EQUAL(std::size_t{2}, parse(list(alice_))->getArray("keys")->size());
  }

  void testRevokeIsImmediateHereAndOnlyForTheHolder() {
    const auto body = parse(create(alice_, R"({"name":"a"})").body);
    const std::string id = body->getValue<std::string>("id");
    const std::string hash = access::hashApiKey(body->getValue<std::string>("key"));
    CPPUNIT_ASSERT_EQUAL(std::string("api_key_not_found"), revoke(bob_, id).code);
    CPPUNIT_ASSERT(directory_->find(hash));
    CPPUNIT_ASSERT_EQUAL(204, revoke(alice_, id).status);
    CPPUNIT_ASSERT(!directory_->find(hash));
    CPPUNIT_ASSERT_EQUAL(404, revoke(alice_, id).status);
  }

  void testNameRules() {
    CPPUNIT_ASSERT_EQUAL(std::string("invalid_body"), create(alice_, "[]").code);
    CPPUNIT_ASSERT_EQUAL(std::string("invalid_body"), create(alice_, "{").code);
    for (const char* body : {R"({})", R"({"name":""})", R"({"name":"   "})", R"({"name":7})",
                             R"({"name":"a\u0007b"})", R"({"name":"\u0085"})"}) {
      CPPUNIT_ASSERT_EQUAL_MESSAGE(body, std::string("invalid_api_key_name"),
                                   create(alice_, body).code);
    }
    CPPUNIT_ASSERT_EQUAL(422, create(alice_, "{\"name\":\"" + std::string(65, 'x') + "\"}").status);
    CPPUNIT_ASSERT_EQUAL(201, create(alice_, "{\"name\":\"" + std::string(64, 'x') + "\"}").status);
    CPPUNIT_ASSERT_EQUAL(201, create(alice_, R"({"name":"Grafana – Ü"})").status);
    CPPUNIT_ASSERT(db_->apiKeys().keysOf(bob_).empty());
  }

 private:
  struct Answer {
    int status = 0;
    std::string code;
    std::string body;
  };

  template <typename Call>
  Answer call(Call&& handler, const std::string& user, const std::string& body,
              const std::string& id = "") {
    http::Request request;
    request.session.state = http::SessionContext::State::kActive;
    request.session.user_id = user;
    request.body = body;
    if (!id.empty()) request.path_params["id"] = id;
    http::Response response;
    try {
      handler(request, response);
      return {response.status, "", response.body};
    } catch (const http::HttpError& e) {
      return {e.status(), e.code(), ""};
    }
  }
  Answer create(const std::string& user, const std::string& body) {
    return call([this](auto& q, auto& r) { api_->create(q, r); }, user, body);
  }
  std::string list(const std::string& user) {
    return call([this](auto& q, auto& r) { api_->list(q, r); }, user, "").body;
  }
  Answer revoke(const std::string& user, const std::string& id) {
    return call([this](auto& q, auto& r) { api_->revoke(q, r); }, user, "", id);
  }
  static Poco::JSON::Object::Ptr parse(const std::string& body) {
    return Poco::JSON::Parser().parse(body).extract<Poco::JSON::Object::Ptr>();
  }

  std::unique_ptr<store::Database> db_;
  std::string alice_, bob_;
  std::unique_ptr<access::KeyDirectory> directory_;
  std::unique_ptr<access::KeysApi> api_;
};

CPPUNIT_TEST_SUITE_REGISTRATION(KeysApiTest);
