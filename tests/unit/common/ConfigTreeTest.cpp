#include "common/ConfigError.hpp"
#include "common/ConfigTree.hpp"

#include <cppunit/extensions/HelperMacros.h>

using skinpulse::common::ConfigError;
using skinpulse::common::ConfigTree;

class ConfigTreeTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(ConfigTreeTest);
  CPPUNIT_TEST(parsesSectionsKeysAndComments);
  CPPUNIT_TEST(laterLayersWinAndOriginsAreKept);
  CPPUNIT_TEST(sectionOrderIsFirstAppearance);
  CPPUNIT_TEST(malformedLinesNameFileAndLine);
  CPPUNIT_TEST(describeNamesEnvironmentVariables);
  CPPUNIT_TEST_SUITE_END();

 public:
  void parsesSectionsKeysAndComments() {
    ConfigTree tree;
    tree.loadIniText(
        "; comment\n# another\n[source.simulated]\nplugin = simulated      ; inline comment\n"
        "url = http://x/a;b\n\n[daemon]\nlisten=127.0.0.1:1\n",
        "a.ini");
    CPPUNIT_ASSERT_EQUAL(std::string("simulated"), tree.find("source.simulated.plugin")->text);
    // A ';' not preceded by whitespace is part of the value (URLs carry them).
    CPPUNIT_ASSERT_EQUAL(std::string("http://x/a;b"), tree.find("source.simulated.url")->text);
    CPPUNIT_ASSERT_EQUAL(std::string("127.0.0.1:1"), tree.find("daemon.listen")->text);
    CPPUNIT_ASSERT_EQUAL(std::string("a.ini:4"), tree.find("source.simulated.plugin")->origin);
    CPPUNIT_ASSERT(!tree.find("daemon.missing"));
  }

  void laterLayersWinAndOriginsAreKept() {
    ConfigTree tree;
    tree.loadIniText("[log]\nlevel = info\n", "main.ini");
    tree.loadIniText("[log]\nlevel = debug\n", "conf.d/10.ini");
    CPPUNIT_ASSERT_EQUAL(std::string("debug"), tree.find("log.level")->text);
    tree.set("log.level", "warn", "SKINPULSE_LOG_LEVEL");
    CPPUNIT_ASSERT_EQUAL(std::string("warn"), tree.find("log.level")->text);
    CPPUNIT_ASSERT_EQUAL(std::string("SKINPULSE_LOG_LEVEL"), tree.find("log.level")->origin);
  }

  void sectionOrderIsFirstAppearance() {
    ConfigTree tree;
    tree.loadIniText("[source.zeta]\nplugin=a\n[source.alpha]\nplugin=b\n", "a.ini");
    tree.loadIniText("[source.zeta]\nenabled=false\n[source.mid]\nplugin=c\n", "b.ini");
    const std::vector<std::string> expected = {"source.zeta", "source.alpha", "source.mid"};
    CPPUNIT_ASSERT(expected == tree.sections());
    const std::vector<std::string> keys = {"enabled", "plugin"};
    CPPUNIT_ASSERT(keys == tree.keysOf("source.zeta"));
  }

  void malformedLinesNameFileAndLine() {
    ConfigTree tree;
    try {
      tree.loadIniText("[daemon]\nlisten 127.0.0.1:1\n", "x.ini");
      CPPUNIT_FAIL("accepted a line without '='");
    } catch (const ConfigError& error) {
      CPPUNIT_ASSERT_EQUAL(std::string("x.ini:2"), error.key());
    }
    CPPUNIT_ASSERT_THROW(tree.loadIniText("key = value\n", "y.ini"), ConfigError);
    CPPUNIT_ASSERT_THROW(tree.loadIniText("[bad section\n", "z.ini"), ConfigError);
    CPPUNIT_ASSERT_THROW(tree.loadIniFile("/nonexistent/skinpulsed.ini"), ConfigError);
  }

  void describeNamesEnvironmentVariables() {
    ConfigTree tree;
    tree.loadIniText("[http]\nthreads = 8\n", "main.ini");
    tree.set("daemon.listen", "x", "LISTEN");
    CPPUNIT_ASSERT_EQUAL(std::string("LISTEN"), tree.describe("daemon.listen"));
    CPPUNIT_ASSERT_EQUAL(std::string("[http] threads (main.ini:2)"), tree.describe("http.threads"));
    CPPUNIT_ASSERT_EQUAL(std::string("[log] level"), tree.describe("log.level"));
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(ConfigTreeTest);
