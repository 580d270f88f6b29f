// Runtime: every module of the table is built from real services (SQLite, no plugins),
// every capability a module requires is provided, the modules run in table order, both
// listeners bind, and everything stops.
#include "app/ModuleTable.hpp"
#include "app/Runtime.hpp"

#include <cppunit/extensions/HelperMacros.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>
#include <vector>

using namespace skinpulse;

namespace {

class TempDir {
 public:
  TempDir() {
    path_ = std::filesystem::temp_directory_path() /
            ("skinpulse-runtime-" + std::to_string(::getpid()) + "-" + std::to_string(counter_++));
    std::filesystem::create_directories(path_ / "plugins");
  }
  ~TempDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  const std::filesystem::path& path() const { return path_; }

 private:
  static inline int counter_ = 0;
  std::filesystem::path path_;
};

app::LoadedConfig configIn(const TempDir& dir, bool admin) {
  // Two items of the shipped catalogue: seeding all of it is not what this test is about.
  std::ifstream shipped(std::string(SKINPULSE_SHARE_DIR) + "/catalog/items.jsonl");
  std::ofstream catalog(dir.path() / "items.jsonl");
  std::string line;
  for (int i = 0; i < 2 && std::getline(shipped, line); ++i) catalog << line << "\n";
  catalog.close();
  common::ConfigTree tree;
  tree.loadIniText(
      "[daemon]\nlisten = 127.0.0.1:0\nplugin_dir = " + (dir.path() / "plugins").string() +
          "\n[storage]\ndatabase_url = sqlite://" + (dir.path() / "db").string() +
          "\n[catalog]\nfile = " + (dir.path() / "items.jsonl").string() +
          "\n[admin]\nlisten = " + (admin ? "127.0.0.1:0" : "") + "\n",
      "test.ini");
  app::LoadedConfig config;
  config.settings = app::buildSettings(tree, app::RunLocation{true, ""},
                                       {{"SESSION_SECRET", std::string(32, 's')}});
  return config;
}

std::vector<std::string> tableNames(bool admin) {
  std::vector<std::string> names;
  for (const auto& entry : app::moduleTable()) {
    if (entry.name == "admin" && !admin) continue;
    if (entry.name == "dev") continue;  // only with [dev] enabled (etc/dev), never here
    names.emplace_back(entry.name);
  }
  return names;
}

}  // namespace

class RuntimeWiringTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(RuntimeWiringTest);
  CPPUNIT_TEST(buildsEveryModuleOfTheTableInOrderAndServes);
  CPPUNIT_TEST(anEmptyAdminListenLeavesTheAdminModuleOut);
  CPPUNIT_TEST_SUITE_END();

 public:
  void buildsEveryModuleOfTheTableInOrderAndServes() {
    TempDir dir;
    app::Runtime runtime(configIn(dir, true));
    std::vector<std::string> built;
    for (const auto name : runtime.moduleNames()) built.emplace_back(name);
    CPPUNIT_ASSERT(built == tableNames(true));
    runtime.start();
    CPPUNIT_ASSERT(runtime.port() != 0);
    CPPUNIT_ASSERT(runtime.adminPort() != 0);
    CPPUNIT_ASSERT(runtime.port() != runtime.adminPort());
    CPPUNIT_ASSERT(runtime.stop());
  }

  void anEmptyAdminListenLeavesTheAdminModuleOut() {
    TempDir dir;
    app::Runtime runtime(configIn(dir, false));
    std::vector<std::string> built;
    for (const auto name : runtime.moduleNames()) built.emplace_back(name);
    CPPUNIT_ASSERT(built == tableNames(false));
    CPPUNIT_ASSERT_EQUAL(std::uint16_t{0}, runtime.adminPort());
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(RuntimeWiringTest);
