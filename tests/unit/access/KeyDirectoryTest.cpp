#include "access/ApiKey.hpp"
#include "access/KeyDirectory.hpp"
#include "store/Database.hpp"

#include <cppunit/extensions/HelperMacros.h>

#include <functional>
#include <memory>
#include <stdexcept>

using namespace skinpulse;
using access::KeyDirectory;

namespace {

// The real store, with a hook that runs while a reload is reading the keys (another
// request creating or revoking one at that moment) and a switch that fails the writes.
class RacingStore final : public store::ApiKeyStore {
 public:
  explicit RacingStore(store::ApiKeyStore& real) : real_(real) {}
  bool createKey(const store::ApiKeyRecord& key, int max) override {
    return real_.createKey(key, max);
  }
  std::vector<store::ApiKeyRecord> keysOf(const std::string& user) override {
    return real_.keysOf(user);
  }
  bool revokeKey(const std::string& user, const std::string& id) override {
    return real_.revokeKey(user, id);
  }
  std::vector<store::ActiveApiKey> activeKeys() override {
    auto keys = real_.activeKeys();
    if (during_read) std::exchange(during_read, nullptr)();
    return keys;
  }
  void addUsage(const std::vector<store::ApiKeyUsage>& usage) override {
    if (fail_writes) throw std::runtime_error("database down");
    real_.addUsage(usage);
  }
  std::function<void()> during_read;
  bool fail_writes = false;

 private:
  store::ApiKeyStore& real_;
};

}  // namespace

class KeyDirectoryTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(KeyDirectoryTest);
  CPPUNIT_TEST(testRevokedDuringAReloadStaysRevoked);
  CPPUNIT_TEST(testCreatedDuringAReloadStaysKnown);
  CPPUNIT_TEST(testALocalKeyGoneFromTheDatabaseIsDroppedByTheNextReload);
  CPPUNIT_TEST(testCountersSurviveReloadsAndAFailedFlush);
  CPPUNIT_TEST_SUITE_END();

 public:
  void setUp() override {
    db_ = store::openDatabase("sqlite://:memory:", std::string(SKINPULSE_SHARE_DIR) + "/sql");
    user_ = db_->users().createUser("a@example.com", "A", "", 1000).id;
    store_ = std::make_unique<RacingStore>(db_->apiKeys());
    directory_ = std::make_unique<KeyDirectory>(*store_);
  }

  void testRevokedDuringAReloadStaysRevoked() {
    const auto key = create("00000000-0000-4000-8000-000000000001");
    directory_->reload();
    CPPUNIT_ASSERT(directory_->find(key.hash));
    // The reload has read the key; the revocation lands before it swaps its copy in.
    store_->during_read = [&] {
      CPPUNIT_ASSERT(store_->revokeKey(user_, "00000000-0000-4000-8000-000000000001"));
      directory_->removed("00000000-0000-4000-8000-000000000001");
    };
    directory_->reload();
    CPPUNIT_ASSERT(!directory_->find(key.hash));
    directory_->reload();  // settled: the database no longer has it either
    CPPUNIT_ASSERT(!directory_->find(key.hash));
  }

  void testCreatedDuringAReloadStaysKnown() {
    directory_->reload();
    access::NewApiKey key;
    store_->during_read = [&] {
      key = create("00000000-0000-4000-8000-000000000002");
      directory_->added({"00000000-0000-4000-8000-000000000002", user_, key.hash});
    };
    directory_->reload();
    CPPUNIT_ASSERT(directory_->find(key.hash));
    directory_->reload();
    CPPUNIT_ASSERT(directory_->find(key.hash));
  }

  void testALocalKeyGoneFromTheDatabaseIsDroppedByTheNextReload() {
    // Created here, revoked on another daemon before this one reloaded.
    const auto key = access::generateApiKey();
    directory_->added({"00000000-0000-4000-8000-000000000003", user_, key.hash});
    CPPUNIT_ASSERT(directory_->find(key.hash));
    directory_->reload();
    CPPUNIT_ASSERT(!directory_->find(key.hash));
  }

  void testCountersSurviveReloadsAndAFailedFlush() {
    const auto key = create("00000000-0000-4000-8000-000000000004");
    directory_->reload();
    KeyDirectory::count(*directory_->find(key.hash), false, 5000);
    directory_->reload();
    KeyDirectory::count(*directory_->find(key.hash), true, 6000);
    store_->fail_writes = true;
    CPPUNIT_ASSERT_THROW(directory_->flush(), std::runtime_error);
    const auto pending = directory_->pendingUsage("00000000-0000-4000-8000-000000000004");
    CPPUNIT_ASSERT_EQUAL(std::int64_t{1}, pending.requests);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{1}, pending.rate_limited);
    store_->fail_writes = false;
    directory_->flush();
    const auto stored = db_->apiKeys().keysOf(user_).at(0);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{1}, stored.requests);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{1}, stored.rate_limited);
    CPPUNIT_ASSERT_EQUAL(std::int64_t{6000}, stored.last_used_at.value_or(0));
    CPPUNIT_ASSERT_EQUAL(std::int64_t{0},
                         directory_->pendingUsage("00000000-0000-4000-8000-000000000004").requests);
    const auto totals = directory_->totals();
    CPPUNIT_ASSERT_EQUAL(std::size_t{1}, totals.size());
    CPPUNIT_ASSERT_EQUAL(std::int64_t{1}, totals[0].requests);
  }

 private:
  access::NewApiKey create(const std::string& id) {
    const auto key = access::generateApiKey();
    CPPUNIT_ASSERT(
        db_->apiKeys().createKey({id, user_, "k", key.prefix, key.hash, 1000, {}, 0, 0}, 10));
    return key;
  }

  std::unique_ptr<store::Database> db_;
  std::string user_;
  std::unique_ptr<RacingStore> store_;
  std::unique_ptr<KeyDirectory> directory_;
};

CPPUNIT_TEST_SUITE_REGISTRATION(KeyDirectoryTest);
