#pragma once

// The behaviour every SharedStore must show, written once and run against the embedded
// store on SQLite and PostgreSQL and against Redis (SharedStore{Sqlite,Postgres,Redis}Test).
// Times are real: TTL tests wait a few hundred milliseconds.

#include "state/SharedStore.hpp"

#include <cppunit/extensions/HelperMacros.h>

#include <memory>
#include <string>

namespace skinpulse::test {

class SharedStoreContract : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(SharedStoreContract);
  CPPUNIT_TEST(testGetSetOverwriteRemove);
  CPPUNIT_TEST(testTtlExpiresAndZeroNeverExpires);
  CPPUNIT_TEST(testSetIfAbsentOnlyOnce);
  CPPUNIT_TEST(testSetIfAbsentRaceHasOneWinner);
  CPPUNIT_TEST(testSetIfAbsentAfterExpiry);
  CPPUNIT_TEST(testTakeIsSingleUse);
  CPPUNIT_TEST(testTakeRaceHasOneWinner);
  CPPUNIT_TEST(testCounterKeepsItsFirstTtl);
  CPPUNIT_TEST(testCounterRefusesText);
  CPPUNIT_TEST(testSlidingWindowAdmitsLimitThenRefuses);
  CPPUNIT_TEST(testSlidingWindowDoesNotCountRefusals);
  CPPUNIT_TEST(testSlidingWindowKeysAreIndependent);
  CPPUNIT_TEST(testSlidingWindowRaceAdmitsExactlyLimit);
  CPPUNIT_TEST(testUnreachableStoreThrowsStoreUnavailable);
  CPPUNIT_TEST_SUITE_END_ABSTRACT();

 public:
  void setUp() override;
  void tearDown() override;

  void testGetSetOverwriteRemove();
  void testTtlExpiresAndZeroNeverExpires();
  void testSetIfAbsentOnlyOnce();
  void testSetIfAbsentRaceHasOneWinner();
  void testSetIfAbsentAfterExpiry();
  void testTakeIsSingleUse();
  void testTakeRaceHasOneWinner();
  void testCounterKeepsItsFirstTtl();
  void testCounterRefusesText();
  void testSlidingWindowAdmitsLimitThenRefuses();
  void testSlidingWindowDoesNotCountRefusals();
  void testSlidingWindowKeysAreIndependent();
  void testSlidingWindowRaceAdmitsExactlyLimit();
  void testUnreachableStoreThrowsStoreUnavailable();

 protected:
  /// A store over a clean backend, or null when the backend is not available here.
  virtual std::unique_ptr<state::SharedStore> makeStore() = 0;
  /// A store whose backend cannot be reached.
  virtual std::unique_ptr<state::SharedStore> makeUnreachableStore() = 0;
  virtual std::string skipReason() const = 0;
  virtual void cleanUp() {}

  bool skipped() const { return store_ == nullptr; }
  /// `name` made unique to this test run (Redis is shared between runs).
  std::string key(const std::string& name) const { return prefix_ + name; }

  std::unique_ptr<state::SharedStore> store_;
  std::string prefix_;
};

}  // namespace skinpulse::test
