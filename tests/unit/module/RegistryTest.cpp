// Registry: a capability is found by the type it was provided as, a missing one is a
// clear error naming the type, and two providers of one type are refused.
#include "module/Registry.hpp"

#include <cppunit/extensions/HelperMacros.h>

#include <stdexcept>
#include <string>

using namespace skinpulse;

namespace {

class Greeter {
 public:
  virtual ~Greeter() = default;
  virtual std::string greet() const = 0;
};

class English final : public Greeter {
 public:
  std::string greet() const override { return "hello"; }
};

struct Unprovided {};

}  // namespace

class RegistryTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(RegistryTest);
  CPPUNIT_TEST(findsACapabilityByTheInterfaceItWasProvidedAs);
  CPPUNIT_TEST(aMissingCapabilityNamesItsType);
  CPPUNIT_TEST(aSecondProviderOfOneTypeIsRefused);
  CPPUNIT_TEST(findAnswersNullWithoutAProvider);
  CPPUNIT_TEST_SUITE_END();

 public:
  void findsACapabilityByTheInterfaceItWasProvidedAs() {
    module::Registry registry;
    English english;
    registry.provide<Greeter>(english);
    CPPUNIT_ASSERT_EQUAL(std::string("hello"), registry.require<Greeter>().greet());
    CPPUNIT_ASSERT(&registry.require<Greeter>() == &english);
    // Provided as the interface, not as the class behind it.
    CPPUNIT_ASSERT(registry.find<English>() == nullptr);
  }

  void aMissingCapabilityNamesItsType() {
    module::Registry registry;
    try {
      registry.require<Unprovided>();
      CPPUNIT_FAIL("require<Unprovided>() returned");
    } catch (const module::MissingCapability& error) {
      const std::string what = error.what();
      CPPUNIT_ASSERT_MESSAGE(what, what.find("Unprovided") != std::string::npos);
      CPPUNIT_ASSERT_MESSAGE(what, what.find("no module provides") != std::string::npos);
    }
  }

  void aSecondProviderOfOneTypeIsRefused() {
    module::Registry registry;
    English first;
    English second;
    registry.provide<Greeter>(first);
    CPPUNIT_ASSERT_THROW(registry.provide<Greeter>(second), std::logic_error);
    CPPUNIT_ASSERT(&registry.require<Greeter>() == &first);
  }

  void findAnswersNullWithoutAProvider() {
    module::Registry registry;
    CPPUNIT_ASSERT(registry.find<Greeter>() == nullptr);
    int answer = 42;
    registry.provide(answer);
    CPPUNIT_ASSERT_EQUAL(42, *registry.find<int>());
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(RegistryTest);
