// CycleFollower: a standby's place in the polling instance's cycle log — the points of
// the cycles since, and a full reload whenever the log cannot be trusted to hold them all.

#include "CycleLogStore.hpp"
#include "ingest/CycleFollower.hpp"

#include <cppunit/extensions/HelperMacros.h>

using namespace skinpulse;
using skinpulse::testing::CycleLogStore;
using skinpulse::testing::pointAt;
using Result = ingest::CycleFollower::Result;

namespace {

constexpr std::int64_t kT = 1'800'000'000;
const auto kStart = ingest::CycleFollower::Clock::time_point{} + std::chrono::hours(100);

}  // namespace

class CycleFollowerTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(CycleFollowerTest);
  CPPUNIT_TEST(followsOnlyTheCyclesLoggedSinceTheStart);
  CPPUNIT_TEST(sequenceHolesAreNotGaps);
  CPPUNIT_TEST(furtherBehindThanOneReadIsAGap);
  CPPUNIT_TEST(aLogThatWentBackIsAGap);
  CPPUNIT_TEST(silenceLongerThanTheLogIsKeptIsAGap);
  CPPUNIT_TEST(aLogPrunedPastThePositionIsAGap);
  CPPUNIT_TEST_SUITE_END();

 public:
  void followsOnlyTheCyclesLoggedSinceTheStart() {
    CycleLogStore store;
    store.log(1, {pointAt(1, kT, 100)});
    ingest::CycleFollower follower(store, {}, kStart);
    CPPUNIT_ASSERT_EQUAL(std::int64_t(1), *follower.position());
    CPPUNIT_ASSERT(follower.next(kStart).result == Result::kUpToDate);
    store.log(2, {pointAt(1, kT + 60, 110), pointAt(2, kT + 60, 200)});
    store.log(3, {pointAt(1, kT + 120, 120)});
    const auto step = follower.next(kStart);
    CPPUNIT_ASSERT(step.result == Result::kFollowed);
    CPPUNIT_ASSERT_EQUAL(std::size_t(3), step.points.size());
    CPPUNIT_ASSERT_EQUAL(std::int64_t(120), step.points.back().price);
    CPPUNIT_ASSERT_EQUAL(std::int64_t(3), *follower.position());
    // Applied once: the next look finds nothing new.
    CPPUNIT_ASSERT(follower.next(kStart).result == Result::kUpToDate);
  }

  void sequenceHolesAreNotGaps() {
    // A rolled-back transaction burns a PostgreSQL sequence number: 5 follows 2.
    CycleLogStore store;
    store.log(2, {pointAt(1, kT, 100)});
    ingest::CycleFollower follower(store, {}, kStart);
    store.log(5, {pointAt(1, kT + 60, 110)});
    const auto step = follower.next(kStart);
    CPPUNIT_ASSERT(step.result == Result::kFollowed);
    CPPUNIT_ASSERT_EQUAL(std::size_t(1), step.points.size());
  }

  void furtherBehindThanOneReadIsAGap() {
    CycleLogStore store;
    ingest::CycleFollower follower(store, {.max_cycles = 2}, kStart);
    for (std::int64_t seq = 1; seq <= 3; ++seq) store.log(seq, {pointAt(1, kT + seq, 100)});
    CPPUNIT_ASSERT(follower.next(kStart).result == Result::kGap);
    // The caller reloads in full after marking the log caught up.
    follower.caughtUp(kStart);
    CPPUNIT_ASSERT(follower.next(kStart).result == Result::kUpToDate);
    store.log(4, {pointAt(1, kT + 4, 100)});
    store.log(5, {pointAt(1, kT + 5, 100)});
    CPPUNIT_ASSERT(follower.next(kStart).result == Result::kFollowed);
  }

  void aLogThatWentBackIsAGap() {
    CycleLogStore store;
    store.log(7, {pointAt(1, kT, 100)});
    ingest::CycleFollower follower(store, {}, kStart);
    store.cycles.clear();  // a restored database
    store.log(3, {pointAt(1, kT, 100)});
    CPPUNIT_ASSERT(follower.next(kStart).result == Result::kGap);
  }

  void silenceLongerThanTheLogIsKeptIsAGap() {
    CycleLogStore store;
    ingest::CycleFollower follower(store, {.max_silence = std::chrono::hours(12)}, kStart);
    store.log(1, {pointAt(1, kT, 100)});
    CPPUNIT_ASSERT(follower.next(kStart + std::chrono::hours(11)).result == Result::kFollowed);
    store.log(2, {pointAt(1, kT + 60, 100)});
    // The log may have been pruned past the position in the meantime.
    CPPUNIT_ASSERT(follower.next(kStart + std::chrono::hours(24)).result == Result::kGap);
  }

  void aLogPrunedPastThePositionIsAGap() {
    CycleLogStore store;
    store.log(4, {pointAt(1, kT, 100)});
    ingest::CycleFollower follower(store, {}, kStart);
    store.cycles.erase(4);  // a day passed: 4 to 6 pruned, 7 is there
    store.log(7, {pointAt(1, kT + 60, 100)});
    store.pruned_before = 7;
    const auto result = follower.next(kStart).result;
    // Stores that say so (FollowedCycles::complete) are believed; older ones cannot tell.
    CPPUNIT_ASSERT(result == (testing::reportsPrunedLog() ? Result::kGap : Result::kFollowed));
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(CycleFollowerTest);
