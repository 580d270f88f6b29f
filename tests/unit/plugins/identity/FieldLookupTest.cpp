#include "FieldLookup.hpp"

#include <cppunit/extensions/HelperMacros.h>

namespace id = skinpulse::plugins::identity;
using skinpulse::sdk::Fields;

class FieldLookupTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(FieldLookupTest);
  CPPUNIT_TEST(singleFieldRefusesRepeats);
  CPPUNIT_TEST_SUITE_END();

 public:
  void singleFieldRefusesRepeats() {
    const Fields fields = {{"state", "a"}, {"code", "c"}, {"state", "b"}};
    CPPUNIT_ASSERT(!id::singleField(fields, "state").has_value());
    CPPUNIT_ASSERT_EQUAL(std::string("c"), id::singleField(fields, "code").value());
    CPPUNIT_ASSERT(!id::singleField(fields, "error").has_value());
    CPPUNIT_ASSERT_EQUAL(std::size_t{2}, id::countField(fields, "state"));
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(FieldLookupTest);
