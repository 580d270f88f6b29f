// Contract: API keys (migrations sqlite/009, postgresql/012): the per-user limit, the
// list, revocation, the directory's view and batched usage.

#include "StoreContract.hpp"

namespace skinpulse::test {

namespace {

store::ApiKeyRecord keyOf(const std::string& id, const std::string& user, const std::string& hash,
                          std::int64_t created_at) {
  return {id, user, "key " + id, "spk_" + id.substr(0, 4), hash, created_at, {}, 0, 0};
}

}  // namespace

void StoreContract::testApiKeysLimitListRevokeUsage() {
  if (skipped()) return;
  auto& users = db_->users();
  const auto alice = users.createUser("alice@example.com", "Alice", "", 1000);
  const auto bob = users.createUser("bob@example.com", "Bob", "", 1000);
  auto& keys = db_->apiKeys();

  CPPUNIT_ASSERT(keys.createKey(keyOf("a1000000", alice.id, std::string(64, 'a'), 2000), 2));
  CPPUNIT_ASSERT(keys.createKey(keyOf("a2000000", alice.id, std::string(64, 'b'), 2001), 2));
  // The third is over Alice's limit: refused, nothing written; Bob has his own.
  CPPUNIT_ASSERT(!keys.createKey(keyOf("a3000000", alice.id, std::string(64, 'c'), 2002), 2));
  CPPUNIT_ASSERT(keys.createKey(keyOf("b1000000", bob.id, std::string(64, 'd'), 2003), 2));

  auto listed = keys.keysOf(alice.id);
  CPPUNIT_ASSERT_EQUAL(std::size_t{2}, listed.size());
  CPPUNIT_ASSERT_EQUAL(std::string("a1000000"), listed[0].id);
  CPPUNIT_ASSERT_EQUAL(std::string("key a1000000"), listed[0].name);
  CPPUNIT_ASSERT_EQUAL(std::string("spk_a100"), listed[0].prefix);
  CPPUNIT_ASSERT_EQUAL(std::int64_t{2000}, listed[0].created_at);
  CPPUNIT_ASSERT(!listed[0].last_used_at);
  CPPUNIT_ASSERT_EQUAL(std::int64_t{0}, listed[0].requests);
  CPPUNIT_ASSERT_EQUAL(std::size_t{3}, keys.activeKeys().size());

  // Usage arrives in batches; last_used_at only moves forward; an unknown id is skipped.
  keys.addUsage({{"a1000000", 5, 1, 3000}, {"gone0000", 7, 0, 3000}});
  keys.addUsage({{"a1000000", 2, 0, 2500}});
  listed = keys.keysOf(alice.id);
  CPPUNIT_ASSERT_EQUAL(std::int64_t{7}, listed[0].requests);
  CPPUNIT_ASSERT_EQUAL(std::int64_t{1}, listed[0].rate_limited);
  CPPUNIT_ASSERT(listed[0].last_used_at);
  CPPUNIT_ASSERT_EQUAL(std::int64_t{3000}, *listed[0].last_used_at);

  // A user revokes only their own keys; a revoked key frees its place under the limit.
  CPPUNIT_ASSERT(!keys.revokeKey(bob.id, "a1000000"));
  CPPUNIT_ASSERT(keys.revokeKey(alice.id, "a1000000"));
  CPPUNIT_ASSERT(!keys.revokeKey(alice.id, "a1000000"));
  CPPUNIT_ASSERT_EQUAL(std::size_t{1}, keys.keysOf(alice.id).size());
  const auto active = keys.activeKeys();
  CPPUNIT_ASSERT_EQUAL(std::size_t{2}, active.size());
  for (const auto& key : active) CPPUNIT_ASSERT(key.id != "a1000000");
  CPPUNIT_ASSERT(keys.createKey(keyOf("a3000000", alice.id, std::string(64, 'c'), 2004), 2));
}

}  // namespace skinpulse::test
