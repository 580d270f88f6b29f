// DrainState: the drain begins once and stays; a readiness probe counts within its window
// only (no probe at all: nobody to tell, so no drain).

#include "app/DrainState.hpp"

#include <cppunit/extensions/HelperMacros.h>

using namespace skinpulse;
using namespace std::chrono_literals;

class DrainStateTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(DrainStateTest);
  CPPUNIT_TEST(beginsOnce);
  CPPUNIT_TEST(probesCountWithinTheirWindow);
  CPPUNIT_TEST_SUITE_END();

 public:
  void beginsOnce() {
    app::DrainState drain;
    CPPUNIT_ASSERT(!drain.draining());
    drain.begin();
    CPPUNIT_ASSERT(drain.draining());
    drain.begin();
    CPPUNIT_ASSERT(drain.draining());
  }

  void probesCountWithinTheirWindow() {
    app::DrainState drain;
    const auto now = app::DrainState::Clock::now();
    CPPUNIT_ASSERT(!drain.probedWithin(60s, now));
    drain.probed(now - 30s);
    CPPUNIT_ASSERT(drain.probedWithin(60s, now));
    CPPUNIT_ASSERT(!drain.probedWithin(10s, now));
    drain.probed(now);
    CPPUNIT_ASSERT(drain.probedWithin(10s, now));
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(DrainStateTest);
