#include "WsTestSupport.hpp"
#include "ws/LiveUpdates.hpp"
#include "ws/UpdateFrames.hpp"

#include <Poco/JSON/Array.h>
#include <Poco/JSON/Object.h>
#include <Poco/JSON/Parser.h>
#include <cppunit/extensions/HelperMacros.h>

using namespace skinpulse;
using namespace skinpulse::ws;

namespace {

events::UpdateBatchPtr pricesFor(std::int64_t items, int sources = 1) {
  std::vector<events::UpdateEntry> entries;
  for (std::int64_t id = items; id >= 1; --id) {  // unordered on purpose
    for (int s = 0; s < sources; ++s) {
      store::PricePoint point{id, "src" + std::to_string(s), 1795000000, 100 * id + s, 1};
      entries.push_back(events::UpdateEntry{id, LiveUpdates::renderPrice(point)});
    }
  }
  return std::make_shared<const events::UpdateBatch>("prices", std::move(entries));
}

Poco::JSON::Object::Ptr parse(const SharedBytes& frame) {
  std::string bytes = *frame;
  const auto frames = wstest::parseServerFrames(bytes);
  CPPUNIT_ASSERT_EQUAL(std::size_t(1), frames.size());
  Poco::JSON::Parser parser;
  return parser.parse(frames[0].payload).extract<Poco::JSON::Object::Ptr>();
}

Subscription subscribed(const char* text) {
  Subscription subscription;
  CPPUNIT_ASSERT(subscription.subscribe(parseClientMessage(text)));
  return subscription;
}

}  // namespace

class UpdateFramesTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(UpdateFramesTest);
  CPPUNIT_TEST(onlySubscribedItemsInItemOrder);
  CPPUNIT_TEST(framesHoldAtMostAThousandEntries);
  CPPUNIT_TEST(starFramesAreBuiltOnceAndShared);
  CPPUNIT_TEST(nothingForUnrelatedSubscriptions);
  CPPUNIT_TEST_SUITE_END();

 public:
  void onlySubscribedItemsInItemOrder() {
    UpdateFrames update(pricesFor(50, 2));
    const auto frames = update.framesFor(subscribed(R"({"type":"subscribe","items":[40,3,999]})"));
    CPPUNIT_ASSERT_EQUAL(std::size_t(1), frames.size());
    const auto object = parse(frames[0]);
    CPPUNIT_ASSERT_EQUAL(std::string("prices"), object->getValue<std::string>("type"));
    const auto data = object->getArray("data");
    CPPUNIT_ASSERT_EQUAL(std::size_t(4), data->size());  // two sources each
    CPPUNIT_ASSERT_EQUAL(3, data->getObject(0)->getValue<int>("item_id"));
    CPPUNIT_ASSERT_EQUAL(std::string("src0"), data->getObject(0)->getValue<std::string>("source"));
    CPPUNIT_ASSERT_EQUAL(std::string("src1"), data->getObject(1)->getValue<std::string>("source"));
    CPPUNIT_ASSERT_EQUAL(40, data->getObject(3)->getValue<int>("item_id"));
    CPPUNIT_ASSERT_EQUAL(4001, data->getObject(3)->getValue<int>("price"));
    CPPUNIT_ASSERT_EQUAL(std::string("2026-11-18T11:06:40Z"),
                         data->getObject(3)->getValue<std::string>("time"));
  }

  void framesHoldAtMostAThousandEntries() {
    std::string ids;
    for (int i = 1; i <= 1000; ++i) ids += (i > 1 ? "," : "") + std::to_string(i);
    UpdateFrames update(pricesFor(2500, 2));
    const auto frames =
        update.framesFor(subscribed((R"({"type":"subscribe","items":[)" + ids + "]}").c_str()));
    CPPUNIT_ASSERT_EQUAL(std::size_t(2), frames.size());  // 2,000 entries
    CPPUNIT_ASSERT_EQUAL(std::size_t(1000), parse(frames[0])->getArray("data")->size());
    CPPUNIT_ASSERT_EQUAL(std::size_t(1000), parse(frames[1])->getArray("data")->size());
    const auto all = update.framesFor(subscribed(R"({"type":"subscribe","items":"*"})"));
    CPPUNIT_ASSERT_EQUAL(std::size_t(5), all.size());
    CPPUNIT_ASSERT_EQUAL(std::size_t(1000), parse(all.back())->getArray("data")->size());
  }

  void starFramesAreBuiltOnceAndShared() {
    UpdateFrames update(pricesFor(10));
    const auto star = subscribed(R"({"type":"subscribe","items":"*"})");
    const auto first = update.framesFor(star);
    const auto second = update.framesFor(star);
    CPPUNIT_ASSERT_EQUAL(std::size_t(1), first.size());
    CPPUNIT_ASSERT(first[0].get() == second[0].get());
    CPPUNIT_ASSERT_EQUAL(std::size_t(10), parse(first[0])->getArray("data")->size());
  }

  void nothingForUnrelatedSubscriptions() {
    UpdateFrames update(pricesFor(10));
    CPPUNIT_ASSERT(update.framesFor(Subscription()).empty());
    CPPUNIT_ASSERT(update.framesFor(subscribed(R"({"type":"subscribe","items":[11,12]})")).empty());
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(UpdateFramesTest);
