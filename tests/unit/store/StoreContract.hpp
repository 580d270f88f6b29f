#pragma once

// The behaviour every Database backend must show, written once. A backend's suite
// derives from StoreContract, says how to make a clean database, and registers itself
// with CPPUNIT_TEST_SUB_SUITE, which runs every test below against it.

#include "store/Database.hpp"
#include "store/SqlDatabase.hpp"

#include <cppunit/extensions/HelperMacros.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace skinpulse::test {

class StoreContract : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(StoreContract);
  CPPUNIT_TEST(testMigrationsAppliedOnceAndRecorded);
  CPPUNIT_TEST(testFailedMigrationIsRolledBackAndNamed);
  CPPUNIT_TEST(testReseedKeepsIdsAndCreatedAt);
  CPPUNIT_TEST(testNamesRoundTripByteForByte);
  CPPUNIT_TEST(testPriceInsertIgnoresDuplicates);
  CPPUNIT_TEST(testFailedBatchStoresNothing);
  CPPUNIT_TEST(testLargeBatchDedupesAndRoundTrips);
  CPPUNIT_TEST(testHistoryOrderAndSourceFilter);
  CPPUNIT_TEST(testLatestPerItemSource);
  CPPUNIT_TEST(testKindAndListingsRoundTrip);
  CPPUNIT_TEST(testOutlierFlagRoundTripAndClear);
  CPPUNIT_TEST(testMigrationMovesSkinportQuantityToListings);
  CPPUNIT_TEST(testFillMissingImages);
  CPPUNIT_TEST(testBackfillAdvancesRevision);
  CPPUNIT_TEST(testStreamedBackfill);
  CPPUNIT_TEST(testItemNames);
  CPPUNIT_TEST(testDeleteOlderThanAndPointsSince);
  CPPUNIT_TEST(testRetentionKeepsEachSeriesReference);
  CPPUNIT_TEST(testScanSinceInChunks);
  CPPUNIT_TEST(testUsersByEmailIgnoringCase);
  CPPUNIT_TEST(testIdentityUpsert);
  CPPUNIT_TEST(testLinkGameIdRefusesAnotherUsersId);
  CPPUNIT_TEST(testSeveralGameLinksOldestFirst);
  CPPUNIT_TEST(testGameLinkCapLabelAndUnlink);
  CPPUNIT_TEST(testUnlinkTakesTheAccountsHoldingsAlong);
  CPPUNIT_TEST(testGameLinksMigrationKeepsLinks);
  CPPUNIT_TEST(testReplaceHoldings);
  CPPUNIT_TEST(testCostBasisAcrossImports);
  CPPUNIT_TEST(testSetCostsInBulk);
  CPPUNIT_TEST(testSnapshotUpsertHistoryAndPruning);
  CPPUNIT_TEST(testSnapshotPassSums);
  CPPUNIT_TEST(testHoldingsPerAccountAndApplied);
  CPPUNIT_TEST(testDeparturesWrittenAndWithdrawn);
  CPPUNIT_TEST(testSnapshotPassSumsRowsPerItem);
  CPPUNIT_TEST(testPortfolioDepthMigrationCarriesHoldings);
  CPPUNIT_TEST(testAlertRulesAndOutbox);
  CPPUNIT_TEST(testAlertLateWorkerCannotOverwriteNewerAttempt);
  CPPUNIT_TEST(testAlertClaimSkipsUsersAtTheirShare);
  CPPUNIT_TEST(testAlertPruneKeepsPendingAndRecent);
  CPPUNIT_TEST(testConcurrentReadersAndWriter);
  CPPUNIT_TEST(testBulkLoadTiming);
  CPPUNIT_TEST(testFullCatalogueAndLargeImport);
  CPPUNIT_TEST(testVariantMigrationKeepsPricesAndHoldings);
  CPPUNIT_TEST(testSeedVariants);
  CPPUNIT_TEST(testRollupsAreTheFoldOfRawPoints);
  CPPUNIT_TEST(testBackfillOlderThanRetentionGoesToRollupsOnly);
  CPPUNIT_TEST(testBackfillReconcilesStoredBars);
  CPPUNIT_TEST(testCycleLog);
  CPPUNIT_TEST(testCycleInsertTiming);
  CPPUNIT_TEST(testApiKeysLimitListRevokeUsage);
  CPPUNIT_TEST_SUITE_END_ABSTRACT();

 public:
  void setUp() override;
  void tearDown() override;

  void testMigrationsAppliedOnceAndRecorded();
  void testFailedMigrationIsRolledBackAndNamed();
  void testReseedKeepsIdsAndCreatedAt();
  void testNamesRoundTripByteForByte();
  void testPriceInsertIgnoresDuplicates();
  void testBackfillAdvancesRevision();
  void testStreamedBackfill();
  void testItemNames();
  void testFailedBatchStoresNothing();
  void testHistoryOrderAndSourceFilter();
  void testLatestPerItemSource();
  void testKindAndListingsRoundTrip();
  void testOutlierFlagRoundTripAndClear();
  void testMigrationMovesSkinportQuantityToListings();
  void testFillMissingImages();
  void testDeleteOlderThanAndPointsSince();
  void testRetentionKeepsEachSeriesReference();
  void testScanSinceInChunks();
  void testLargeBatchDedupesAndRoundTrips();
  void testUsersByEmailIgnoringCase();
  void testIdentityUpsert();
  void testLinkGameIdRefusesAnotherUsersId();
  void testSeveralGameLinksOldestFirst();          // StoreContractGameLinks.cpp
  void testGameLinkCapLabelAndUnlink();            // StoreContractGameLinks.cpp
  void testUnlinkTakesTheAccountsHoldingsAlong();  // StoreContractGameLinks.cpp
  void testGameLinksMigrationKeepsLinks();         // StoreContractGameLinks.cpp
  void testReplaceHoldings();
  void testCostBasisAcrossImports();                      // StoreContractPortfolio.cpp
  void testSetCostsInBulk();                              // StoreContractCosts.cpp
  void testSnapshotUpsertHistoryAndPruning();             // StoreContractPortfolio.cpp
  void testSnapshotPassSums();                            // StoreContractPortfolio.cpp
  void testHoldingsPerAccountAndApplied();                // StoreContractPortfolioDepth.cpp
  void testDeparturesWrittenAndWithdrawn();               // StoreContractPortfolioDepth.cpp
  void testSnapshotPassSumsRowsPerItem();                 // StoreContractPortfolioDepth.cpp
  void testPortfolioDepthMigrationCarriesHoldings();      // StoreContractPortfolioDepth.cpp
  void testAlertRulesAndOutbox();                         // StoreContractAlerts.cpp
  void testAlertLateWorkerCannotOverwriteNewerAttempt();  // StoreContractAlerts.cpp
  void testAlertClaimSkipsUsersAtTheirShare();            // StoreContractAlerts.cpp
  void testAlertPruneKeepsPendingAndRecent();             // StoreContractAlerts.cpp
  void testConcurrentReadersAndWriter();
  void testBulkLoadTiming();
  void testFullCatalogueAndLargeImport();
  void testVariantMigrationKeepsPricesAndHoldings();       // StoreContractVariants.cpp
  void testSeedVariants();                                 // StoreContractVariants.cpp
  void testRollupsAreTheFoldOfRawPoints();                 // StoreContractRollups.cpp
  void testBackfillOlderThanRetentionGoesToRollupsOnly();  // StoreContractRollups.cpp
  void testBackfillReconcilesStoredBars();                 // StoreContractRollups.cpp
  void testCycleLog();                                     // StoreContractRollups.cpp
  void testCycleInsertTiming();                            // StoreContractRollups.cpp
  void testApiKeysLimitListRevokeUsage();                  // StoreContractApiKeys.cpp

 protected:
  /// Prepares an empty database and returns its URL, or "" when this backend cannot run
  /// here (the suite then prints why in skipReason() and passes).
  virtual std::string cleanDatabaseUrl() = 0;
  virtual std::string skipReason() const = 0;
  /// Called after each test, the database closed.
  virtual void removeDatabase() {}

  /// true when the test must return at once (backend unavailable).
  bool skipped() const { return url_.empty(); }
  /// Opens url_ with the project's migrations.
  std::unique_ptr<store::Database> open() const;
  static std::string migrationsDir();
  /// Replaces db_ with a fresh database at the schema as it was before the migration
  /// whose name ends in `suffix` (every earlier one applied), for the tests of what that
  /// migration carries over; fails the test when no migration has that name. open()
  /// afterwards applies the rest.
  void openSchemaBefore(const std::string& suffix);
  /// Raw SQL access to db_ for checks the interfaces do not offer.
  store::ConnectionPool& pool();

  /// `holdings` with holding_id 0, to compare with records written before they were stored.
  static std::vector<store::HoldingRecord> withoutIds(std::vector<store::HoldingRecord> holdings);
  static store::HoldingRecord withoutId(store::HoldingRecord holding);

  /// Seeds `count` items "Item 0001".."Item NNNN" (ids 1..count) at `now`.
  void seedItems(std::size_t count, std::int64_t now = 1000);

  std::string url_;
  std::unique_ptr<store::Database> db_;
};

}  // namespace skinpulse::test
