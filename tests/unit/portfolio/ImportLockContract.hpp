#pragma once

// The import cooldown lock on a real shared store, written once and run on the embedded
// store (ImportLockSqliteTest) and on Redis (ImportLockRedisTest): what docs/api.md §6
// asks of it (atomic, fail closed, released on failure, a cooldown only on success, kept
// by the store rather than by the process).

#include "portfolio/ImportLock.hpp"

#include <cppunit/extensions/HelperMacros.h>

#include <memory>
#include <string>

namespace skinpulse::test {

class ImportLockContract : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(ImportLockContract);
  CPPUNIT_TEST(testOneHolderUntilReleased);
  CPPUNIT_TEST(testReleaseLeavesAnotherAttemptsLock);
  CPPUNIT_TEST(testFinishStartsTheCooldownWithItsTimeLeft);
  CPPUNIT_TEST(testCooldownExpires);
  CPPUNIT_TEST(testUsersAreIndependent);
  CPPUNIT_TEST(testRaceHasOneWinner);
  CPPUNIT_TEST(testCooldownOutlivesTheProcessState);
  CPPUNIT_TEST(testUnreachableStoreFailsClosed);
  CPPUNIT_TEST_SUITE_END_ABSTRACT();

 public:
  void setUp() override;
  void tearDown() override;

  void testOneHolderUntilReleased();
  void testReleaseLeavesAnotherAttemptsLock();
  void testFinishStartsTheCooldownWithItsTimeLeft();
  void testCooldownExpires();
  void testUsersAreIndependent();
  void testRaceHasOneWinner();
  void testCooldownOutlivesTheProcessState();
  void testUnreachableStoreFailsClosed();

 protected:
  /// A store on the backend (a new one per call, on the same data), or null when the
  /// backend is not available here.
  virtual std::unique_ptr<state::SharedStore> makeStore() = 0;
  virtual std::unique_ptr<state::SharedStore> makeUnreachableStore() = 0;
  virtual std::string skipReason() const = 0;
  virtual void cleanUp() {}

  bool skipped() const { return store_ == nullptr; }
  portfolio::ImportLock lockOn(state::SharedStore& store);

  std::unique_ptr<state::SharedStore> store_;
  std::string user_;  ///< unique per run: Redis is shared between runs
};

}  // namespace skinpulse::test
