// ModuleList::attach: every module is attached once, in list order, after all of them
// are built, so a module finds what a later one provides; names() lists them in order.
#include "ServicesFixture.hpp"
#include "module/ModuleList.hpp"

#include <cppunit/extensions/HelperMacros.h>

#include <string>
#include <vector>

using namespace skinpulse;

namespace {

struct Clock {
  int now = 7;
};

// Provides a Clock when built; the consumer, listed before it, requires it in attach().
class Provider final : public module::Module {
 public:
  Provider(module::Registry& registry, std::vector<std::string>& log) : log_(log) {
    registry.provide(clock_);
  }
  std::string_view name() const override { return "provider"; }
  void attach(module::Services&) override { log_.push_back("attach provider"); }

 private:
  Clock clock_;
  std::vector<std::string>& log_;
};

class Consumer final : public module::Module {
 public:
  explicit Consumer(std::vector<std::string>& log) : log_(log) {}
  std::string_view name() const override { return "consumer"; }
  void attach(module::Services& services) override {
    log_.push_back("attach consumer, clock " +
                   std::to_string(services.registry.require<Clock>().now));
  }
  void registerRoutes(http::Router&) override { log_.push_back("routes consumer"); }

 private:
  std::vector<std::string>& log_;
};

}  // namespace

class ModuleAttachTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(ModuleAttachTest);
  CPPUNIT_TEST(attachesInListOrderAfterEveryModuleIsBuilt);
  CPPUNIT_TEST(findsAModuleByItsType);
  CPPUNIT_TEST_SUITE_END();

 public:
  void attachesInListOrderAfterEveryModuleIsBuilt() {
    std::vector<std::string> log;
    test::ServicesFixture fixture;
    module::ModuleList modules;
    modules.add(std::make_unique<Consumer>(log));
    modules.add(std::make_unique<Provider>(fixture.registry, log));
    modules.attach(fixture.services);
    modules.registerRoutes(fixture.router);
    const std::vector<std::string> expected = {"attach consumer, clock 7", "attach provider",
                                               "routes consumer"};
    CPPUNIT_ASSERT(log == expected);
    const std::vector<std::string_view> names = {"consumer", "provider"};
    CPPUNIT_ASSERT(modules.names() == names);
  }

  void findsAModuleByItsType() {
    std::vector<std::string> log;
    module::ModuleList modules;
    auto& consumer = modules.add(std::make_unique<Consumer>(log));
    CPPUNIT_ASSERT(modules.find<Consumer>() == &consumer);
    CPPUNIT_ASSERT(modules.find<Provider>() == nullptr);
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(ModuleAttachTest);
