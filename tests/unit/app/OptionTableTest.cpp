// OptionTable: a table fills the bound fields of its Options with the checks of each
// row's type; the daemon's tables together name every key once, each with a description.
#include "app/ConfigSchema.hpp"
#include "common/ConfigError.hpp"
#include "common/OptionTable.hpp"

#include <cppunit/extensions/HelperMacros.h>

#include <set>
#include <string>

using namespace skinpulse;

namespace {

struct DemoOptions {
  int count = 1;
  std::int64_t bytes = 2;
  bool on = false;
  std::string address;
  std::vector<std::string> names;
  std::string untouched = "kept";
};

const common::OptionTable<DemoOptions>& demoTable() {
  using T = common::OptionType;
  static const common::OptionTable<DemoOptions> table = {
      {{"demo.count", T::kInteger, 1, 10, nullptr, "3", "a count"}, &DemoOptions::count},
      {{"demo.bytes", T::kInteger, 0, 1LL << 40, nullptr, "4", "bytes"}, &DemoOptions::bytes},
      {{"demo.on", T::kBoolean, 0, 0, nullptr, "false", "a switch"}, &DemoOptions::on},
      {{"demo.address", T::kUrl, 0, 0, nullptr, nullptr, "a URL"}, &DemoOptions::address},
      {{"demo.names", T::kList, 0, 0, nullptr, "", "a list"}, &DemoOptions::names},
      {{"demo.untouched", T::kText, 0, 0, nullptr, nullptr, "read by hand"}},
  };
  return table;
}

}  // namespace

class OptionTableTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(OptionTableTest);
  CPPUNIT_TEST(fillsBoundFieldsOfPresentKeys);
  CPPUNIT_TEST(refusesValuesOutsideTheirType);
  CPPUNIT_TEST(everyDaemonKeyIsListedOnceWithADescription);
  CPPUNIT_TEST_SUITE_END();

 public:
  void fillsBoundFieldsOfPresentKeys() {
    common::ConfigTree tree;
    tree.loadIniText(
        "[demo]\ncount = 7\nbytes = 1099511627776\non = yes\naddress = https://x.org\n"
        "names = a, b,,c\nuntouched = ignored\n",
        "demo.ini");
    DemoOptions options;
    common::readOptions(demoTable(), common::OptionReader(tree), options);
    CPPUNIT_ASSERT_EQUAL(7, options.count);
    CPPUNIT_ASSERT_EQUAL(std::int64_t(1) << 40, options.bytes);
    CPPUNIT_ASSERT(options.on);
    CPPUNIT_ASSERT_EQUAL(std::string("https://x.org"), options.address);
    CPPUNIT_ASSERT(options.names == std::vector<std::string>({"a", "b", "c"}));
    CPPUNIT_ASSERT_EQUAL(std::string("kept"), options.untouched);

    common::ConfigTree empty;  // absent keys leave the fields alone
    DemoOptions defaults;
    common::readOptions(demoTable(), common::OptionReader(empty), defaults);
    CPPUNIT_ASSERT_EQUAL(1, defaults.count);
  }

  void refusesValuesOutsideTheirType() {
    const auto problem = [](const std::string& ini) -> std::string {
      common::ConfigTree tree;
      tree.loadIniText("[demo]\n" + ini + "\n", "demo.ini");
      DemoOptions options;
      try {
        common::readOptions(demoTable(), common::OptionReader(tree), options);
      } catch (const common::ConfigError& error) {
        CPPUNIT_ASSERT(error.setting().rfind("demo.", 0) == 0);
        return error.what();
      }
      return "";
    };
    CPPUNIT_ASSERT_EQUAL(std::string("[demo] count (demo.ini:2): '11' is not an integer in 1..10"),
                         problem("count = 11"));
    CPPUNIT_ASSERT(problem("on = maybe").find("is not true or false") != std::string::npos);
    CPPUNIT_ASSERT(problem("address = ftp://x").find("http:// or https://") != std::string::npos);
    CPPUNIT_ASSERT_EQUAL(std::string(), problem("untouched = anything"));
  }

  void everyDaemonKeyIsListedOnceWithADescription() {
    std::set<std::string> keys;
    for (const auto& spec : app::daemonConfigKeys()) {
      CPPUNIT_ASSERT_MESSAGE(spec.key, keys.insert(spec.key).second);
      CPPUNIT_ASSERT_MESSAGE(spec.key, std::string(spec.description).size() > 5);
      const std::string key = spec.key;
      CPPUNIT_ASSERT_MESSAGE(spec.key, app::isDaemonSection(key.substr(0, key.find('.'))));
    }
    CPPUNIT_ASSERT(keys.count("session.secret") == 1);
    CPPUNIT_ASSERT(keys.count("portfolio.inventory_url") == 1);
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(OptionTableTest);
