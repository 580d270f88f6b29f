// The history cache (prices/HistoryCache): hits, the LRU byte bound, invalidation per
// item and of everything, a fill that read the store before an invalidation being
// dropped (alone and under concurrent readers and a writer), validity and TTL.

#include "prices/HistoryCache.hpp"

#include <cppunit/extensions/HelperMacros.h>

#include <atomic>
#include <thread>

using namespace skinpulse;
using prices::HistoryCache;
using prices::HistoryCacheOptions;

namespace {

HistoryCache::Rendered body(const std::string& text, std::int64_t valid_until = INT64_MAX) {
  return HistoryCache::Rendered{std::make_shared<const std::string>(text), valid_until,
                                text.size()};
}

// Fills (item, variant) at `now` with a fresh ticket.
bool put(HistoryCache& cache, std::int64_t item, const std::string& variant,
         const std::string& text, std::int64_t now = 1000) {
  return cache.fill(cache.ticket(item), variant, body(text), now);
}

std::string text(const HistoryCache::Body& body) {
  return body ? *std::static_pointer_cast<const std::string>(body) : std::string("<miss>");
}

}  // namespace

class HistoryCacheTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(HistoryCacheTest);
  CPPUNIT_TEST(servesWhatWasFilledUntilInvalidated);
  CPPUNIT_TEST(getRendersOnceThenHits);
  CPPUNIT_TEST(evictsLeastRecentlyUsedUnderTheByteBound);
  CPPUNIT_TEST(invalidatesOnlyTheItemsTold);
  CPPUNIT_TEST(dropsAFillThatReadBeforeAnInvalidation);
  CPPUNIT_TEST(neverServesAnOlderBodyAfterAnInvalidationUnderConcurrency);
  CPPUNIT_TEST(expiresAtValidUntilAndAfterTheTtl);
  CPPUNIT_TEST(zeroBytesTurnsItOff);
  CPPUNIT_TEST_SUITE_END();

 public:
  void servesWhatWasFilledUntilInvalidated() {
    HistoryCache cache;
    CPPUNIT_ASSERT(!cache.find(1, "h|86400|*", 1000));
    CPPUNIT_ASSERT(put(cache, 1, "h|86400|*", "[1]"));
    const auto hit = cache.find(1, "h|86400|*", 1001);
    CPPUNIT_ASSERT_EQUAL(std::string("[1]"), text(hit));
    CPPUNIT_ASSERT(hit == cache.find(1, "h|86400|*", 1002));  // the same shared bytes
    CPPUNIT_ASSERT(!cache.find(1, "h|3600|*", 1001));         // another variant
    CPPUNIT_ASSERT(!cache.find(2, "h|86400|*", 1001));        // another item
    const auto stats = cache.stats();
    CPPUNIT_ASSERT_EQUAL(std::uint64_t{2}, stats.hits);
    CPPUNIT_ASSERT_EQUAL(std::uint64_t{3}, stats.misses);
    CPPUNIT_ASSERT_EQUAL(std::size_t{1}, stats.entries);
    cache.invalidateAll();
    CPPUNIT_ASSERT(!cache.find(1, "h|86400|*", 1003));
    CPPUNIT_ASSERT_EQUAL(std::size_t{0}, cache.stats().bytes);
  }

  void getRendersOnceThenHits() {
    HistoryCache cache;
    int renders = 0;
    auto render = [&] {
      ++renders;
      return body("[" + std::to_string(renders) + "]");
    };
    CPPUNIT_ASSERT_EQUAL(std::string("[1]"), text(cache.get(7, "v", 1000, render)));
    CPPUNIT_ASSERT_EQUAL(std::string("[1]"), text(cache.get(7, "v", 1001, render)));
    CPPUNIT_ASSERT_EQUAL(1, renders);
    cache.invalidate({7});
    CPPUNIT_ASSERT_EQUAL(std::string("[2]"), text(cache.get(7, "v", 1002, render)));
    CPPUNIT_ASSERT_EQUAL(2, renders);
    // A render that throws caches nothing and lets the error through.
    cache.invalidate({7});
    CPPUNIT_ASSERT_THROW(
        cache.get(7, "v", 1003,
                  []() -> HistoryCache::Rendered { throw std::runtime_error("store down"); }),
        std::runtime_error);
    CPPUNIT_ASSERT(!cache.find(7, "v", 1003));
  }

  void evictsLeastRecentlyUsedUnderTheByteBound() {
    const std::string kilobyte(1000, 'x');
    // Room for three entries of ~1 KB (body, key and bookkeeping), not four.
    HistoryCache cache(HistoryCacheOptions{3 * 1300, 60});
    CPPUNIT_ASSERT(put(cache, 1, "v", kilobyte));
    CPPUNIT_ASSERT(put(cache, 2, "v", kilobyte));
    CPPUNIT_ASSERT(put(cache, 3, "v", kilobyte));
    CPPUNIT_ASSERT(cache.find(1, "v", 1000));  // 1 is now the most recently used
    CPPUNIT_ASSERT(put(cache, 4, "v", kilobyte));
    CPPUNIT_ASSERT(cache.find(1, "v", 1000));
    CPPUNIT_ASSERT(!cache.find(2, "v", 1000));  // the least recently used went
    CPPUNIT_ASSERT(cache.find(3, "v", 1000));
    CPPUNIT_ASSERT(cache.find(4, "v", 1000));
    auto stats = cache.stats();
    CPPUNIT_ASSERT_EQUAL(std::uint64_t{1}, stats.evictions);
    CPPUNIT_ASSERT_EQUAL(std::size_t{3}, stats.entries);
    CPPUNIT_ASSERT(stats.bytes <= 3 * 1300);
    CPPUNIT_ASSERT(stats.bytes >= 3 * 1000);
    // Refilling a key replaces its entry instead of counting it twice.
    CPPUNIT_ASSERT(put(cache, 4, "v", kilobyte));
    CPPUNIT_ASSERT_EQUAL(stats.bytes, cache.stats().bytes);
    // A body larger than the whole bound is not kept, and evicts nothing.
    CPPUNIT_ASSERT(!put(cache, 5, "v", std::string(4000, 'y')));
    CPPUNIT_ASSERT_EQUAL(std::size_t{3}, cache.stats().entries);
  }

  void invalidatesOnlyTheItemsTold() {
    HistoryCache cache;
    put(cache, 1, "h|86400|*", "a");
    put(cache, 1, "c|24h|5m|alpha", "b");
    put(cache, 2, "h|86400|*", "c");
    put(cache, 10, "h|86400|*", "d");
    cache.invalidate({1, 3});
    CPPUNIT_ASSERT(!cache.find(1, "h|86400|*", 1000));
    CPPUNIT_ASSERT(!cache.find(1, "c|24h|5m|alpha", 1000));
    CPPUNIT_ASSERT_EQUAL(std::string("c"), text(cache.find(2, "h|86400|*", 1000)));
    CPPUNIT_ASSERT_EQUAL(std::string("d"), text(cache.find(10, "h|86400|*", 1000)));
    CPPUNIT_ASSERT_EQUAL(std::size_t{2}, cache.stats().entries);
  }

  void dropsAFillThatReadBeforeAnInvalidation() {
    HistoryCache cache;
    // A miss takes its ticket and reads the store; a cycle stores points for the item and
    // invalidates it; the miss then tries to keep the body it read before the cycle.
    const auto before = cache.ticket(1);
    cache.invalidate({1});
    CPPUNIT_ASSERT(!cache.fill(before, "v", body("old"), 1000));
    CPPUNIT_ASSERT(!cache.find(1, "v", 1000));
    CPPUNIT_ASSERT_EQUAL(std::uint64_t{1}, cache.stats().stale_fills);
    // The same around a reload.
    const auto before_reload = cache.ticket(1);
    cache.invalidateAll();
    CPPUNIT_ASSERT(!cache.fill(before_reload, "v", body("old"), 1000));
    // A ticket taken after the invalidation fills.
    CPPUNIT_ASSERT(cache.fill(cache.ticket(1), "v", body("new"), 1000));
    CPPUNIT_ASSERT_EQUAL(std::string("new"), text(cache.find(1, "v", 1000)));
    // Another item's invalidation does not drop this item's fill, unless they share a
    // stripe (an item 4096 apart does: a dropped fill, never a stale one).
    const auto other = cache.ticket(2);
    cache.invalidate({3});
    CPPUNIT_ASSERT(cache.fill(other, "v", body("two"), 1000));
  }

  void neverServesAnOlderBodyAfterAnInvalidationUnderConcurrency() {
    HistoryCache cache;
    std::atomic<std::int64_t> stored{0};       // the store's version of item 1
    std::atomic<std::int64_t> invalidated{0};  // the newest version whose cycle finished
    std::atomic<bool> stop{false};
    std::atomic<int> stale{0};
    std::atomic<std::int64_t> requests{0};
    auto reader = [&] {
      while (!stop.load()) {
        const std::int64_t finished = invalidated.load();
        const auto got = cache.get(1, "v", 1000, [&] {
          const std::int64_t version = stored.load();  // "reads the store"
          std::this_thread::yield();                   // a slow render widens the race
          return body(std::to_string(version));
        });
        if (std::stoll(text(got)) < finished) ++stale;
        ++requests;
      }
    };
    std::vector<std::thread> readers;
    for (int i = 0; i < 4; ++i) readers.emplace_back(reader);
    for (std::int64_t version = 1; version <= 2000; ++version) {
      stored.store(version);  // the cycle commits...
      cache.invalidate({1});  // ...then its observer invalidates
      invalidated.store(version);
      if (version % 50 == 0) std::this_thread::yield();
    }
    stop.store(true);
    for (auto& thread : readers) thread.join();
    CPPUNIT_ASSERT_EQUAL(0, stale.load());
    CPPUNIT_ASSERT(requests.load() > 0);
  }

  void expiresAtValidUntilAndAfterTheTtl() {
    HistoryCache cache(HistoryCacheOptions{1 << 20, 60});
    CPPUNIT_ASSERT(cache.fill(cache.ticket(1), "ttl", body("a"), 100));
    CPPUNIT_ASSERT(cache.find(1, "ttl", 159));
    CPPUNIT_ASSERT(!cache.find(1, "ttl", 160));  // filled at 100, TTL 60 s
    // Exact until valid_until (the oldest point leaves the window then).
    CPPUNIT_ASSERT(cache.fill(cache.ticket(1), "window", body("b", 130), 100));
    CPPUNIT_ASSERT(cache.find(1, "window", 129));
    CPPUNIT_ASSERT(!cache.find(1, "window", 130));
    // A clock that steps back before the fill misses.
    CPPUNIT_ASSERT(cache.fill(cache.ticket(1), "back", body("c"), 100));
    CPPUNIT_ASSERT(!cache.find(1, "back", 99));
    // A body already invalid is not kept.
    CPPUNIT_ASSERT(!cache.fill(cache.ticket(1), "late", body("d", 100), 100));
    CPPUNIT_ASSERT_EQUAL(std::size_t{0}, cache.stats().entries);
  }

  void zeroBytesTurnsItOff() {
    HistoryCache cache(HistoryCacheOptions{0, 60});
    CPPUNIT_ASSERT(!cache.enabled());
    int renders = 0;
    auto render = [&] {
      ++renders;
      return body("x");
    };
    CPPUNIT_ASSERT_EQUAL(std::string("x"), text(cache.get(1, "v", 1000, render)));
    CPPUNIT_ASSERT_EQUAL(std::string("x"), text(cache.get(1, "v", 1000, render)));
    CPPUNIT_ASSERT_EQUAL(2, renders);
    CPPUNIT_ASSERT_EQUAL(std::size_t{0}, cache.stats().entries);
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(HistoryCacheTest);
