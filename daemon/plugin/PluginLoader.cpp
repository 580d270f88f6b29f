#include "plugin/PluginLoader.hpp"

#include "plugin/DescriptorCheck.hpp"

#include <array>
#include <dlfcn.h>
#include <exception>
#include <fstream>
#include <string>
#include <utility>

namespace skinpulse::plugin {
namespace {

using LibraryPtr = std::shared_ptr<boost::dll::shared_library>;

std::optional<std::string> checkElfMagic(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::string("cannot be opened for reading");
  std::array<char, 4> magic{};
  in.read(magic.data(), magic.size());
  if (in.gcount() != static_cast<std::streamsize>(magic.size()) || magic[0] != '\x7f' ||
      magic[1] != 'E' || magic[2] != 'L' || magic[3] != 'F') {
    return std::string("not an ELF shared object (no ELF magic at the start of the file)");
  }
  return std::nullopt;
}

// Boost.DLL reports every dlopen failure as bad_file_descriptor; dlerror() still holds the
// loader's own text ("undefined symbol: ...", "wrong ELF class ...") right after the call.
std::pair<LibraryPtr, std::string> openLibrary(const std::filesystem::path& path) {
  std::error_code ec;
  auto library = std::make_shared<boost::dll::shared_library>(
      path, ec, boost::dll::load_mode::rtld_now | boost::dll::load_mode::rtld_local);
  if (!ec && library->is_loaded()) return {std::move(library), {}};
  const char* detail = ::dlerror();
  return {nullptr, "cannot be loaded: " + (detail != nullptr ? std::string(detail) : ec.message())};
}

const skinpulse_plugin_descriptor* callEntry(const boost::dll::shared_library& library,
                                             std::string& error) {
  try {
    auto& entry = library.get<const skinpulse_plugin_descriptor*()>(SKINPULSE_PLUGIN_ENTRY_SYMBOL);
    return entry();
  } catch (const std::exception& e) {
    error = std::string(SKINPULSE_PLUGIN_ENTRY_SYMBOL "() failed: ") + e.what();
  } catch (...) {
    error = SKINPULSE_PLUGIN_ENTRY_SYMBOL "() threw an unknown exception";
  }
  return nullptr;
}

LoadOutcome refuse(LoadOutcome outcome, std::string reason) {
  outcome.row.status = "refused";
  outcome.row.reason = std::move(reason);
  return outcome;
}

LoadOutcome loadChecked(const std::filesystem::path& path, LoadOutcome outcome) {
  if (auto reason = checkElfMagic(path)) return refuse(std::move(outcome), *reason);
  auto [library, openError] = openLibrary(path);
  if (!library) return refuse(std::move(outcome), openError);
  if (!library->has(SKINPULSE_PLUGIN_ENTRY_SYMBOL)) {
    return refuse(std::move(outcome),
                  "no entry symbol " SKINPULSE_PLUGIN_ENTRY_SYMBOL
                  " (not a skinpulse plugin, or built without SKINPULSE_DECLARE_PLUGIN)");
  }
  std::string entryError;
  const skinpulse_plugin_descriptor* descriptor = callEntry(*library, entryError);
  if (!entryError.empty()) return refuse(std::move(outcome), entryError);
  if (descriptor != nullptr) {
    outcome.row.abi =
        std::to_string(descriptor->abi_major) + "." + std::to_string(descriptor->abi_minor);
  }
  if (auto reason = checkDescriptor(descriptor, outcome.row.file)) {
    return refuse(std::move(outcome), *reason);
  }
  const PluginKind kind = *kindFromDescriptor(descriptor->kind);
  outcome.plugin.emplace(path, std::move(library), *descriptor, kind);
  outcome.row.kind = std::string(kindName(kind));
  outcome.row.name = outcome.plugin->name();
  outcome.row.version = outcome.plugin->version();
  outcome.row.status = "loaded";
  return outcome;
}

}  // namespace

LoadOutcome loadPlugin(const std::filesystem::path& path) {
  LoadOutcome outcome;
  try {
    outcome.row.file = path.filename().string();
    PluginFileName parsed = splitPluginFileName(outcome.row.file);
    outcome.row.kind = std::move(parsed.kind);
    outcome.row.name = std::move(parsed.name);
    return loadChecked(path, std::move(outcome));
  } catch (const std::exception& e) {
    LoadOutcome failed;
    failed.row.file = path.filename().string();
    return refuse(std::move(failed), std::string("unexpected error while loading: ") + e.what());
  }
}

}  // namespace skinpulse::plugin
