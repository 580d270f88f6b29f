#include "app/ConfigLoader.hpp"

#include "BuildPaths.hpp"
#include "common/ConfigError.hpp"

#include <algorithm>
#include <filesystem>

namespace fs = std::filesystem;

namespace skinpulse::app {

std::string mainConfigFile(const std::optional<std::string>& config_file) {
  if (config_file) return *config_file;
  if (fs::exists(build_paths::kInstalledConfigFile)) return build_paths::kInstalledConfigFile;
  return {};
}

std::vector<std::string> dropInFiles(const common::ConfigTree& tree, const std::string& main_file) {
  std::vector<std::string> files;
  const auto confD = tree.find("daemon.conf_d");
  fs::path dir = confD ? fs::path(confD->text) : fs::path("conf.d");
  if (dir.is_relative()) dir = fs::path(main_file).parent_path() / dir;
  std::error_code error;
  if (fs::is_directory(dir, error)) {
    for (const auto& entry : fs::directory_iterator(dir)) {
      if (entry.is_regular_file() && entry.path().extension() == ".ini") {
        files.push_back(entry.path().string());
      }
    }
    std::sort(files.begin(), files.end());
  } else if (confD) {
    throw common::ConfigError(tree.describe("daemon.conf_d"),
                              "'" + dir.string() + "' is not a directory", "daemon.conf_d");
  }
  return files;
}

LoadedConfig loadConfig(const std::optional<std::string>& config_file, const RunLocation& location,
                        const std::map<std::string, std::string>& environment) {
  LoadedConfig loaded;
  common::ConfigTree tree;
  loaded.main_file = mainConfigFile(config_file);
  if (!loaded.main_file.empty()) {
    tree.loadIniFile(loaded.main_file);
    loaded.drop_ins = dropInFiles(tree, loaded.main_file);
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

}  // namespace skinpulse::app
