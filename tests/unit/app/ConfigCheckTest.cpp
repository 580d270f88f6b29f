#include "app/ConfigCheck.hpp"

#include <cppunit/extensions/HelperMacros.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

using namespace skinpulse;
namespace fs = std::filesystem;

namespace {

const std::string kSecret(40, 's');

std::size_t countContaining(const std::vector<std::string>& lines, const std::string& needle) {
  std::size_t n = 0;
  for (const auto& line : lines) n += line.find(needle) != std::string::npos ? 1 : 0;
  return n;
}

std::string joined(const std::vector<std::string>& lines) {
  std::string text;
  for (const auto& line : lines) text += line + "\n";
  return text;
}

}  // namespace

class ConfigCheckTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(ConfigCheckTest);
  CPPUNIT_TEST(validConfigurationHasNoProblems);
  CPPUNIT_TEST(everyBadValueIsReportedOnce);
  CPPUNIT_TEST(malformedLinesAreReportedAndTheRestStillChecked);
  CPPUNIT_TEST(keysUnderABrokenHeaderAreSetAside);
  CPPUNIT_TEST(environmentValuesAreBlamedByVariableName);
  CPPUNIT_TEST(shortSecretIsOneProblem);
  CPPUNIT_TEST(everyEnabledSourceIsTriedOnItsOwn);
  CPPUNIT_TEST(sourceKindMustBeAKnownKind);
  CPPUNIT_TEST(reportPrintsOneLinePerProblemAndTheVerdict);
  CPPUNIT_TEST_SUITE_END();

  fs::path dir_;
  fs::path plugins_;

 public:
  void setUp() override {
    std::random_device random;
    dir_ = fs::temp_directory_path() / ("skinpulse-check-" + std::to_string(random()));
    plugins_ = dir_ / "plugins";
    fs::create_directories(plugins_);
  }
  void tearDown() override { fs::remove_all(dir_); }

  std::string write(const std::string& name, const std::string& text) {
    const auto path = dir_ / name;
    fs::create_directories(path.parent_path());
    std::ofstream(path) << text;
    return path.string();
  }

  // A main file whose plugin directory is empty (no plugin loads), plus `text`.
  app::ConfigReport check(const std::string& text,
                          std::map<std::string, std::string> environment = {
                              {"SESSION_SECRET", kSecret}}) {
    const auto main =
        write("skinpulsed.ini", "[daemon]\nplugin_dir = " + plugins_.string() + "\n" + text);
    return app::checkConfiguration(main, app::RunLocation{}, environment);
  }

  void validConfigurationHasNoProblems() {
    write("conf.d/10-a.ini", "[log]\nlevel = debug\n");
    const auto report = check("[http]\nthreads = 8\n");
    CPPUNIT_ASSERT_MESSAGE(joined(report.problems), report.ok());
    CPPUNIT_ASSERT_EQUAL(std::size_t(1), report.drop_ins.size());
  }

  void everyBadValueIsReportedOnce() {
    const auto report = check(
        "listen = nowhere\n[http]\nthreads = many\nqueue = 0\n[log]\nlevel = loud\n"
        "format = xml\n[storage]\nretention_days = 1\n");
    const auto& p = report.problems;
    CPPUNIT_ASSERT_EQUAL_MESSAGE(joined(p), std::size_t(6), p.size());
    for (const char* key : {"[daemon] listen", "[http] threads", "[http] queue", "[log] level",
                            "[log] format", "[storage] retention_days"}) {
      CPPUNIT_ASSERT_EQUAL_MESSAGE(key, std::size_t(1), countContaining(p, key));
    }
  }

  void malformedLinesAreReportedAndTheRestStillChecked() {
    const auto report = check("not a pair\n[log]\nlevel = loud\n= nothing\n");
    const auto& p = report.problems;
    CPPUNIT_ASSERT_EQUAL_MESSAGE(joined(p), std::size_t(3), p.size());
    CPPUNIT_ASSERT_EQUAL(std::size_t(1), countContaining(p, "skinpulsed.ini:3: expected"));
    CPPUNIT_ASSERT_EQUAL(std::size_t(1), countContaining(p, "skinpulsed.ini:6: invalid key"));
    CPPUNIT_ASSERT_EQUAL(std::size_t(1), countContaining(p, "[log] level"));
  }

  void keysUnderABrokenHeaderAreSetAside() {
    const auto report = check("[http\nthreads = many\n[log]\nlevel = loud\n");
    const auto& p = report.problems;
    CPPUNIT_ASSERT_EQUAL_MESSAGE(joined(p), std::size_t(2), p.size());
    CPPUNIT_ASSERT_EQUAL(std::size_t(1), countContaining(p, "malformed section header"));
    CPPUNIT_ASSERT_EQUAL(std::size_t(0), countContaining(p, "threads"));
  }

  void environmentValuesAreBlamedByVariableName() {
    const auto report =
        check("[daemon]\nlisten = also-bad\n", {{"SESSION_SECRET", kSecret}, {"LISTEN", "bad"}});
    // The environment wins, so it is reported; the file's value is the next problem.
    const auto& p = report.problems;
    CPPUNIT_ASSERT_EQUAL_MESSAGE(joined(p), std::size_t(2), p.size());
    CPPUNIT_ASSERT(p[0].rfind("LISTEN: 'bad'", 0) == 0);
    CPPUNIT_ASSERT(p[1].find("[daemon] listen") != std::string::npos);
  }

  void shortSecretIsOneProblem() {
    const auto report = check("", {{"SESSION_SECRET", "short"}});
    CPPUNIT_ASSERT_EQUAL_MESSAGE(joined(report.problems), std::size_t(1), report.problems.size());
    CPPUNIT_ASSERT(report.problems[0].find("is 5 bytes") != std::string::npos);
    const auto missing = check("", {});
    CPPUNIT_ASSERT_EQUAL(std::size_t(1), missing.problems.size());
    CPPUNIT_ASSERT(missing.problems[0].find("SESSION_SECRET: missing") != std::string::npos);
  }

  void everyEnabledSourceIsTriedOnItsOwn() {
    const auto report = check(
        "[source.a]\nplugin = nope_a\n[source.b]\nplugin = nope_b\n[source.c]\nplugin = nope_c\n"
        "enabled = false\n");
    const auto& p = report.problems;
    CPPUNIT_ASSERT_EQUAL_MESSAGE(joined(p), std::size_t(2), p.size());
    CPPUNIT_ASSERT(p[0].rfind("[source.a]: ", 0) == 0 && p[0].find("nope_a") != std::string::npos);
    CPPUNIT_ASSERT(p[1].rfind("[source.b]: ", 0) == 0 && p[1].find("nope_b") != std::string::npos);
  }

  void sourceKindMustBeAKnownKind() {
    const auto report = check(
        "[source.a]\nplugin = nope_a\nkind = bids\n[source.b]\nplugin = nope_b\nkind = bid\n");
    const auto& p = report.problems;
    CPPUNIT_ASSERT_EQUAL_MESSAGE(joined(p), std::size_t(2), p.size());
    CPPUNIT_ASSERT_MESSAGE(
        p[0], p[0].find("[source.a] kind") != std::string::npos &&
                  p[0].find("ask, bid, sale or reference, not 'bids'") != std::string::npos);
    CPPUNIT_ASSERT_MESSAGE(p[1], p[1].find("nope_b") != std::string::npos);  // bid is fine
  }

  void reportPrintsOneLinePerProblemAndTheVerdict() {
    app::ConfigReport report;
    report.main_file = "/etc/x.ini";
    report.drop_ins = {"a", "b"};
    std::ostringstream out;
    std::ostringstream err;
    CPPUNIT_ASSERT_EQUAL(0, app::printReport(report, out, err));
    CPPUNIT_ASSERT_EQUAL(std::string("configuration OK: /etc/x.ini + 2 drop-in(s)\n"), out.str());
    report.problems = {"one", "two"};
    report.warnings = {"w"};
    out.str("");
    CPPUNIT_ASSERT_EQUAL(1, app::printReport(report, out, err));
    CPPUNIT_ASSERT_EQUAL(std::string(), out.str());
    CPPUNIT_ASSERT_EQUAL(std::string("warning: w\nerror: one\nerror: two\n"
                                     "configuration has 2 problem(s): /etc/x.ini + 2 drop-in(s)\n"),
                         err.str());
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(ConfigCheckTest);
