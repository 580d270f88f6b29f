#include "app/ConfigLoader.hpp"

#include "BuildPaths.hpp"
#include "app/ConfigError.hpp"

#include <algorithm>
#include <filesystem>

namespace fs = std::filesystem;

namespace skinpulse {

LoadedConfig loadConfig(const std::optional<std::string>& config_file, const RunLocation& location,
                        const std::map<std::string, std::string>& environment) {
  LoadedConfig loaded;
  ConfigTree tree;
  if (config_file) {
    loaded.main_file = *config_file;
  } else if (fs::exists(build_paths::kInstalledConfigFile)) {
    loaded.main_file = build_paths::kInstalledConfigFile;
  }
  if (!loaded.main_file.empty()) {
    tree.loadIniFile(loaded.main_file);
    const auto confD = tree.find("daemon.conf_d");
    fs::path dir = confD ? fs::path(confD->text) : fs::path("conf.d");
    if (dir.is_relative()) dir = fs::path(loaded.main_file).parent_path() / dir;
    std::error_code error;
    if (fs::is_directory(dir, error)) {
      for (const auto& entry : fs::directory_iterator(dir)) {
        if (entry.is_regular_file() && entry.path().extension() == ".ini") {
          loaded.drop_ins.push_back(entry.path().string());
        }
      }
      std::sort(loaded.drop_ins.begin(), loaded.drop_ins.end());
    } else if (confD) {
      throw ConfigError(tree.describe("daemon.conf_d"),
                        "'" + dir.string() + "' is not a directory");
    }
    for (const auto& file : loaded.drop_ins) tree.loadIniFile(file);
  }
  RunLocation where = location;
  if (!loaded.main_file.empty())
    where.config_dir = fs::path(loaded.main_file).parent_path().string();
  loaded.settings = buildSettings(tree, where, environment);
  return loaded;
}

bool isBuildTreeBinary(const std::string& executable_dir) {
  std::error_code error;
  return fs::equivalent(fs::path(executable_dir), fs::path(build_paths::kBuildBinDir), error);
}

}  // namespace skinpulse
