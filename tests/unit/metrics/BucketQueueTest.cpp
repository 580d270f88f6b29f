// BucketQueue: what goes in comes out bit for bit (every field, at the limits of the
// ranges BucketLevel allows), in order, through any mix of pushes and pops, and a steady
// queue stays small.

#include "metrics/BucketLevel.hpp"
#include "metrics/BucketQueue.hpp"

#include <cppunit/extensions/HelperMacros.h>

#include <deque>
#include <random>

using namespace skinpulse;
using metrics::Bucket;
using metrics::BucketLevel;
using metrics::BucketQueue;

namespace {

// A bucket built the way BucketLevel builds one: points added to a Bucket, some earlier
// than its first, prices anywhere in [0, kMaxPrice].
Bucket randomBucket(std::mt19937_64& random, std::uint32_t index, std::int64_t width) {
  std::uniform_int_distribution<int> points(1, 6);
  std::uniform_int_distribution<std::int64_t> offset(0, width - 1);
  std::uniform_int_distribution<std::int64_t> any_price(0, BucketLevel::kMaxPrice);
  std::uniform_int_distribution<std::int64_t> move(-50, 50);
  std::bernoulli_distribution wild(0.2);
  Bucket b;
  b.index = index;
  std::int64_t price = any_price(random);
  for (int i = points(random); i > 0; --i) {
    price = wild(random)
                ? any_price(random)
                : std::clamp<std::int64_t>(price + move(random), 0, BucketLevel::kMaxPrice);
    b.add(offset(random), price);
  }
  return b;
}

void assertSame(const Bucket& expected, const Bucket& actual) {
  CPPUNIT_ASSERT_EQUAL(expected.index, actual.index);
  CPPUNIT_ASSERT_EQUAL(expected.n, actual.n);
  CPPUNIT_ASSERT_EQUAL(expected.first_price, actual.first_price);
  CPPUNIT_ASSERT_EQUAL(expected.last_price, actual.last_price);
  CPPUNIT_ASSERT(expected == actual);  // the 128-bit sums too
}

}  // namespace

class BucketQueueTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(BucketQueueTest);
  CPPUNIT_TEST(testRoundTripOfEveryField);
  CPPUNIT_TEST(testExtremeValues);
  CPPUNIT_TEST(testInterleavedPushAndPopKeepOrder);
  CPPUNIT_TEST(testOnePointBucketsTakeAFewBytes);
  CPPUNIT_TEST(testSteadyQueueDoesNotGrow);
  CPPUNIT_TEST_SUITE_END();

 public:
  void testRoundTripOfEveryField() {
    std::mt19937_64 random(3);
    std::uniform_int_distribution<std::uint32_t> gap(1, 40);
    BucketQueue queue;
    std::vector<Bucket> pushed;
    std::uint32_t index = 5'000'000;
    for (int i = 0; i < 2000; ++i) {
      index += gap(random);
      pushed.push_back(randomBucket(random, index, 3600));
      queue.push(pushed.back());
    }
    CPPUNIT_ASSERT_EQUAL(pushed.size(), queue.size());
    auto reader = queue.reader();
    std::size_t seen = 0;
    for (Bucket b; reader.next(b); ++seen) assertSame(pushed[seen], b);
    CPPUNIT_ASSERT_EQUAL(pushed.size(), seen);
    for (const auto& expected : pushed) {
      assertSame(expected, queue.front());
      assertSame(expected, queue.pop());
    }
    CPPUNIT_ASSERT(queue.empty());
  }

  void testExtremeValues() {
    // The largest sums BucketLevel can produce: 3600 points a second apart in an hour
    // bucket, swinging between 0 and kMaxPrice (Σdp² near 2^91, Σdtdp near 2^62).
    Bucket wild;
    wild.index = UINT32_MAX - 1;
    for (std::int64_t t = 3599; t >= 0; --t) wild.add(t, t % 2 ? BucketLevel::kMaxPrice : 0);
    Bucket flat;
    flat.index = UINT32_MAX;
    flat.add(3599, BucketLevel::kMaxPrice);
    Bucket zero;
    zero.index = 0;
    zero.add(0, 0);
    zero.add(1, 0);
    BucketQueue queue;
    for (const auto& b : {zero, wild, flat}) queue.push(b);
    assertSame(zero, queue.pop());
    assertSame(wild, queue.pop());
    assertSame(flat, queue.pop());
    CPPUNIT_ASSERT(wild.sum_dp2 > static_cast<metrics::Wide>(1) << 90);
  }

  void testInterleavedPushAndPopKeepOrder() {
    std::mt19937_64 random(5);
    std::uniform_int_distribution<int> pushes(0, 4), pops(0, 4);
    BucketQueue queue;
    std::deque<Bucket> expected;
    std::uint32_t index = 100;
    for (int round = 0; round < 3000; ++round) {
      for (int i = pushes(random); i > 0; --i) {
        expected.push_back(randomBucket(random, ++index, 300));
        queue.push(expected.back());
      }
      for (int i = pops(random); i > 0 && !expected.empty(); --i) {
        assertSame(expected.front(), queue.pop());
        expected.pop_front();
      }
      CPPUNIT_ASSERT_EQUAL(expected.size(), queue.size());
    }
    queue.shrink();
    while (!expected.empty()) {
      assertSame(expected.front(), queue.pop());
      expected.pop_front();
    }
    CPPUNIT_ASSERT(queue.empty());
  }

  void testOnePointBucketsTakeAFewBytes() {
    // A day of 5-minute buckets of one point each, prices near $10 moving a few cents.
    BucketQueue queue;
    std::int64_t price = 1000;
    for (std::uint32_t i = 0; i < 288; ++i) {
      Bucket b;
      b.index = 6'000'000 + i;
      price += static_cast<std::int64_t>(i % 7) - 3;
      b.add(17 + i % 200, price);
      queue.push(b);
    }
    queue.shrink();
    CPPUNIT_ASSERT_MESSAGE(std::to_string(queue.capacityBytes()), queue.capacityBytes() <= 288 * 6);
  }

  void testSteadyQueueDoesNotGrow() {
    // A window sliding for a week: one bucket in, one out; popped bytes are reused.
    std::mt19937_64 random(9);
    BucketQueue queue;
    std::uint32_t index = 0;
    for (; index < 300; ++index) queue.push(randomBucket(random, index, 300));
    std::size_t largest = 0;
    for (int step = 0; step < 2016; ++step, ++index) {
      queue.pop();
      queue.push(randomBucket(random, index, 300));
      if (step == 300) largest = queue.capacityBytes();
      if (step > 300) largest = std::max(largest, queue.capacityBytes());
    }
    std::size_t live = 0;
    auto reader = queue.reader();
    for (Bucket b; reader.next(b);) ++live;
    CPPUNIT_ASSERT_EQUAL(std::size_t{300}, live);
    queue.shrink();
    CPPUNIT_ASSERT(largest <= queue.capacityBytes() * 2);
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(BucketQueueTest);
