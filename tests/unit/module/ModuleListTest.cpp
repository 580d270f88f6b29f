// ModuleList: routes and starts in list order, stops in reverse, exactly once, and
// unwinds the modules already started when one fails to start.
#include "module/ModuleList.hpp"

#include <cppunit/extensions/HelperMacros.h>

#include <stdexcept>
#include <string>
#include <vector>

using namespace skinpulse;

namespace {

class Recorder final : public module::Module {
 public:
  Recorder(std::string name, std::vector<std::string>& log, bool fail_start = false,
           bool clean_stop = true, bool ready = true)
      : name_(std::move(name)),
        log_(log),
        fail_start_(fail_start),
        clean_stop_(clean_stop),
        ready_(ready) {}

  std::string_view name() const override { return name_; }
  void registerRoutes(http::Router&) override { log_.push_back("routes " + name_); }
  void start() override {
    if (fail_start_) throw std::runtime_error(name_ + " cannot start");
    log_.push_back("start " + name_);
  }
  bool stop() override {
    log_.push_back("stop " + name_);
    return clean_stop_;
  }
  bool describeReadiness(common::JsonWriter& json) const override {
    json.key(name_).value(ready_);
    return ready_;
  }

 private:
  std::string name_;
  std::vector<std::string>& log_;
  bool fail_start_;
  bool clean_stop_;
  bool ready_;
};

}  // namespace

class ModuleListTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(ModuleListTest);
  CPPUNIT_TEST(startsInOrderAndStopsInReverseOnce);
  CPPUNIT_TEST(aFailedStartStopsTheModulesAlreadyStarted);
  CPPUNIT_TEST(anUncleanStopIsReportedAfterStoppingTheRest);
  CPPUNIT_TEST(readinessIsEveryModuleInOrder);
  CPPUNIT_TEST(destructionStopsWhatStillRuns);
  CPPUNIT_TEST_SUITE_END();

 public:
  void startsInOrderAndStopsInReverseOnce() {
    std::vector<std::string> log;
    module::ModuleList modules;
    auto& a = modules.add(std::make_unique<Recorder>("a", log));
    modules.add(std::make_unique<Recorder>("b", log));
    CPPUNIT_ASSERT_EQUAL(std::string("a"), std::string(a.name()));
    http::Router router;
    modules.registerRoutes(router);
    modules.start();
    CPPUNIT_ASSERT(modules.stop());
    CPPUNIT_ASSERT(modules.stop());  // idempotent
    const std::vector<std::string> expected = {"routes a", "routes b", "start a",
                                               "start b",  "stop b",   "stop a"};
    CPPUNIT_ASSERT(expected == log);
  }

  void aFailedStartStopsTheModulesAlreadyStarted() {
    std::vector<std::string> log;
    module::ModuleList modules;
    modules.add(std::make_unique<Recorder>("a", log));
    modules.add(std::make_unique<Recorder>("b", log));
    modules.add(std::make_unique<Recorder>("c", log, true));
    CPPUNIT_ASSERT_THROW(modules.start(), std::runtime_error);
    const std::vector<std::string> expected = {"start a", "start b", "stop b", "stop a"};
    CPPUNIT_ASSERT(expected == log);
    log.clear();
    CPPUNIT_ASSERT(modules.stop());
    CPPUNIT_ASSERT(log.empty());
  }

  void anUncleanStopIsReportedAfterStoppingTheRest() {
    std::vector<std::string> log;
    module::ModuleList modules;
    modules.add(std::make_unique<Recorder>("a", log));
    modules.add(std::make_unique<Recorder>("b", log, false, false));
    modules.start();
    CPPUNIT_ASSERT(!modules.stop());
    const std::vector<std::string> expected = {"start a", "start b", "stop b", "stop a"};
    CPPUNIT_ASSERT(expected == log);
  }

  void readinessIsEveryModuleInOrder() {
    std::vector<std::string> log;
    module::ModuleList modules;
    modules.add(std::make_unique<Recorder>("a", log, false, true, false));
    modules.add(std::make_unique<Recorder>("b", log));
    common::JsonWriter json;
    json.beginObject();
    CPPUNIT_ASSERT(!modules.describeReadiness(json));
    json.endObject();
    CPPUNIT_ASSERT_EQUAL(std::string("{\"a\":false,\"b\":true}"), json.str());
  }

  void destructionStopsWhatStillRuns() {
    std::vector<std::string> log;
    {
      module::ModuleList modules;
      modules.add(std::make_unique<Recorder>("a", log));
      modules.add(std::make_unique<Recorder>("b", log));
      modules.start();
    }
    const std::vector<std::string> expected = {"start a", "start b", "stop b", "stop a"};
    CPPUNIT_ASSERT(expected == log);
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(ModuleListTest);
