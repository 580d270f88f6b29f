#include "events/UpdateBatch.hpp"

#include <cppunit/extensions/HelperMacros.h>

using namespace skinpulse::events;

namespace {

UpdateEntry entry(std::int64_t id, const std::string& tag) { return UpdateEntry{id, tag}; }

// The range of `id` as the entries' tags, in order.
std::string tagsOf(const UpdateBatch& batch, std::int64_t id) {
  const auto [first, last] = batch.rangeOf(id);
  std::string tags;
  for (auto i = first; i < last; ++i) tags += batch.entries()[i].json;
  return tags;
}

}  // namespace

class UpdateBatchTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(UpdateBatchTest);
  CPPUNIT_TEST(entriesAreOrderedByItemKeepingEachItemsOrder);
  CPPUNIT_TEST(rangesOfDenseIds);
  CPPUNIT_TEST(rangesOfSparseIds);
  CPPUNIT_TEST(emptyBatchHasNoRanges);
  CPPUNIT_TEST_SUITE_END();

 public:
  void entriesAreOrderedByItemKeepingEachItemsOrder() {
    UpdateBatch batch("prices", {entry(3, "a"), entry(1, "b"), entry(3, "c"), entry(2, "d")});
    std::string order;
    for (const auto& e : batch.entries()) order += e.json;
    CPPUNIT_ASSERT_EQUAL(std::string("bdac"), order);
    CPPUNIT_ASSERT_EQUAL(std::size_t(3), batch.distinctItems());
  }

  void rangesOfDenseIds() {
    // Ids 5..40 with gaps and several entries for some: the direct index.
    std::vector<UpdateEntry> entries;
    for (std::int64_t id = 40; id >= 5; --id) {
      if (id % 7 == 0) continue;
      entries.push_back(entry(id, std::to_string(id) + "x"));
      if (id % 5 == 0) entries.push_back(entry(id, std::to_string(id) + "y"));
    }
    UpdateBatch batch("prices", std::move(entries));
    CPPUNIT_ASSERT_EQUAL(std::string("5x5y"), tagsOf(batch, 5));
    CPPUNIT_ASSERT_EQUAL(std::string("6x"), tagsOf(batch, 6));
    CPPUNIT_ASSERT_EQUAL(std::string(""), tagsOf(batch, 7));
    CPPUNIT_ASSERT_EQUAL(std::string("25x25y"), tagsOf(batch, 25));
    CPPUNIT_ASSERT_EQUAL(std::string("40x40y"), tagsOf(batch, 40));
    for (const std::int64_t outside : {-1L, 0L, 4L, 41L, 1000000L}) {
      const auto [first, last] = batch.rangeOf(outside);
      CPPUNIT_ASSERT_EQUAL(first, last);
    }
  }

  void rangesOfSparseIds() {
    UpdateBatch batch("prices", {entry(1'000'000'000'000, "big"), entry(2, "two"), entry(2, "two'"),
                                 entry(900'000, "mid")});
    CPPUNIT_ASSERT_EQUAL(std::string("twotwo'"), tagsOf(batch, 2));
    CPPUNIT_ASSERT_EQUAL(std::string("mid"), tagsOf(batch, 900'000));
    CPPUNIT_ASSERT_EQUAL(std::string("big"), tagsOf(batch, 1'000'000'000'000));
    CPPUNIT_ASSERT_EQUAL(std::string(""), tagsOf(batch, 3));
    CPPUNIT_ASSERT_EQUAL(std::string(""), tagsOf(batch, 2'000'000'000'000));
  }

  void emptyBatchHasNoRanges() {
    UpdateBatch batch("prices", {});
    const auto [first, last] = batch.rangeOf(1);
    CPPUNIT_ASSERT_EQUAL(std::size_t(0), first);
    CPPUNIT_ASSERT_EQUAL(std::size_t(0), last);
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(UpdateBatchTest);
