// The ingest lease on PostgreSQL (docs/api.md §8): two daemons on one database, exactly
// one polls, and the other takes over when the first goes away. Needs
// SKINPULSE_TEST_POSTGRES_URL; without it every test says it was skipped and passes.

#include "store/DatabaseUrl.hpp"
#ifdef SKINPULSE_WITH_POSTGRES
#include "store/postgres/PostgresLease.hpp"
#endif

#include <cppunit/extensions/HelperMacros.h>

#include <chrono>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <thread>

using namespace skinpulse;

class IngestLeasePostgresTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(IngestLeasePostgresTest);
  CPPUNIT_TEST(exactlyOneInstanceHoldsTheLease);
  CPPUNIT_TEST(unreachableDatabaseMeansNoLease);
  CPPUNIT_TEST_SUITE_END();

  static const char* url() { return std::getenv("SKINPULSE_TEST_POSTGRES_URL"); }

 public:
  void exactlyOneInstanceHoldsTheLease() {
#ifdef SKINPULSE_WITH_POSTGRES
    if (url() == nullptr) {
      std::cout << " [skipped: SKINPULSE_TEST_POSTGRES_URL not set] ";
      return;
    }
    const auto conninfo = store::parseDatabaseUrl(url()).connection_string;
    auto first = std::make_unique<store::postgres::PostgresLease>(conninfo);
    store::postgres::PostgresLease second(conninfo);
    CPPUNIT_ASSERT(first->holds());
    CPPUNIT_ASSERT(!second.holds());
    CPPUNIT_ASSERT(first->holds());  // asking again keeps it
    CPPUNIT_ASSERT(!second.holds());
    first.reset();  // the instance goes away: its connection, and with it the lock
    // The server ends the old session asynchronously; a standby retries every few seconds.
    bool tookOver = false;
    for (int attempt = 0; attempt < 50 && !tookOver; ++attempt) {
      tookOver = second.holds();
      if (!tookOver) std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    CPPUNIT_ASSERT(tookOver);
    store::postgres::PostgresLease third(conninfo);
    CPPUNIT_ASSERT(!third.holds());
#endif
  }

  void unreachableDatabaseMeansNoLease() {
#ifdef SKINPULSE_WITH_POSTGRES
    store::postgres::PostgresLease lease("host=127.0.0.1 port=1 dbname=none connect_timeout=2");
    CPPUNIT_ASSERT(!lease.holds());
    CPPUNIT_ASSERT(!lease.holds());
#endif
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(IngestLeasePostgresTest);
