#include "plugin/PluginRegistry.hpp"

#include "common/Log.hpp"
#include "plugin/InstanceConfig.hpp"
#include "plugin/PluginLoader.hpp"
#include "plugin/UserAgent.hpp"

#include <algorithm>
#include <array>
#include <cstdio>
#include <exception>
#include <system_error>

namespace skinpulse::plugin {
namespace {

std::vector<std::filesystem::path> listPluginFiles(const std::filesystem::path& directory,
                                                   std::error_code& ec) {
  std::vector<std::filesystem::path> files;
  std::filesystem::directory_iterator it(directory, ec);
  for (const std::filesystem::directory_iterator end; !ec && it != end; it.increment(ec)) {
    std::error_code typeError;
    if (it->path().extension() == ".so" && it->is_regular_file(typeError)) {
      files.push_back(it->path());
    }
  }
  std::sort(files.begin(), files.end(),
            [](const auto& a, const auto& b) { return a.filename() < b.filename(); });
  return files;
}

}  // namespace

std::size_t PluginRegistry::scan(const std::filesystem::path& directory) {
  std::error_code ec;
  const std::vector<std::filesystem::path> files = listPluginFiles(directory, ec);
  if (ec) {
    log::main().warn("plugin directory {} cannot be read: {}", directory.string(), ec.message());
  }
  std::size_t accepted = 0;
  for (const auto& file : files) {
    if (load(file)) ++accepted;
  }
  return accepted;
}

bool PluginRegistry::load(const std::filesystem::path& file) { return accept(loadPlugin(file)); }

bool PluginRegistry::accept(LoadOutcome&& outcome) {
  if (outcome.plugin) {
    const PluginLibrary& fresh = *outcome.plugin;
    if (const PluginLibrary* existing = find(fresh.kind(), fresh.name())) {
      outcome.row.status = "refused";
      outcome.row.reason = "duplicate " + std::string(kindName(fresh.kind())) + " plugin '" +
                           fresh.name() + "', already loaded from " + existing->path().string();
      outcome.plugin.reset();
    }
  }
  const bool accepted = outcome.plugin.has_value();
  if (accepted) {
    log::main().info("plugin {} loaded: {} '{}' version {}", outcome.row.file, outcome.row.kind,
                     outcome.row.name, outcome.row.version);
    plugins_.push_back(std::move(*outcome.plugin));
  } else {
    log::main().warn("{}", refusalMessage(outcome.row));
  }
  report_.push_back(std::move(outcome.row));
  return accepted;
}

const PluginLibrary* PluginRegistry::find(PluginKind kind, std::string_view name) const {
  for (const PluginLibrary& plugin : plugins_) {
    if (plugin.kind() == kind && plugin.name() == name) return &plugin;
  }
  return nullptr;
}

const std::vector<ConfigKeyInfo>* PluginRegistry::configKeys(PluginKind kind,
                                                             std::string_view name) const {
  const PluginLibrary* plugin = find(kind, name);
  return plugin != nullptr ? &plugin->configKeys() : nullptr;
}

const PluginReportRow* PluginRegistry::findRow(PluginKind kind, std::string_view name) const {
  for (auto it = report_.rbegin(); it != report_.rend(); ++it) {
    if (it->kind == kindName(kind) && it->name == name) return &*it;
  }
  return nullptr;
}

PluginResult<const PluginLibrary*> PluginRegistry::resolve(const PluginInstanceSpec& spec,
                                                           PluginKind expected) const {
  using Result = PluginResult<const PluginLibrary*>;
  const std::string kind(kindName(spec.kind));
  if (spec.kind != expected) {
    return Result::failure(describeInstance(spec) + " is configured as a " + kind +
                           " but was requested as a " + std::string(kindName(expected)));
  }
  const std::string name = effectivePluginName(spec);
  if (const PluginLibrary* plugin = find(spec.kind, name)) return Result::success(plugin);
  if (const PluginReportRow* row = findRow(spec.kind, name)) {
    return Result::failure(describeInstance(spec) + ": " + kind + " plugin '" + name +
                           "' was refused: " + row->reason);
  }
  return Result::failure(describeInstance(spec) + ": no " + kind + " plugin named '" + name +
                         "' is loaded (expected file " + kind + "_" + name + ".so)");
}

std::optional<std::string> PluginRegistry::validate(const PluginInstanceSpec& spec) const {
  const auto plugin = resolve(spec, spec.kind);
  if (!plugin) return plugin.error();
  const auto keys = pluginKeysFor(spec, *plugin.value());
  if (!keys) return keys.error();
  return std::nullopt;
}

PluginResult<PluginRegistry::RawInstance> PluginRegistry::createRaw(
    const PluginInstanceSpec& spec, PluginKind expected, const HostServices& services) const {
  using Result = PluginResult<RawInstance>;
  const auto resolved = resolve(spec, expected);
  if (!resolved) return Result::failure(resolved.error());
  const PluginLibrary& plugin = *resolved.value();
  auto keys = pluginKeysFor(spec, plugin);
  if (!keys) return Result::failure(keys.error());

  RawInstance raw;
  raw.pluginName = plugin.name();
  raw.instanceName = spec.instance_name;
  raw.library = plugin.library();
  raw.destroy = plugin.destroyFunction();
  raw.fetch_quotes = plugin.fetchQuotesFunction();
  raw.poll = plugin.pollFunction();
  const auto agent = spec.keys.find(std::string(kUserAgentKey));  // checked by pluginKeysFor
  raw.host =
      std::make_unique<HostImpl>(spec.kind, spec.instance_name, std::move(keys).value(), services,
                                 agent != spec.keys.end() ? agent->second : std::string());

  // create() is noexcept when made by SKINPULSE_DECLARE_PLUGIN; a hand-written one may not be.
  std::array<char, 1024> error{};
  try {
    raw.object = plugin.createFunction()(raw.host.get(), error.data(), error.size());
  } catch (const std::exception& e) {
    std::snprintf(error.data(), error.size(), "%s", e.what());
  } catch (...) {
    std::snprintf(error.data(), error.size(), "%s", "unknown exception from create()");
  }
  if (raw.object == nullptr) {
    error.back() = '\0';
    const std::string message = error.front() != '\0' ? error.data() : "no reason given";
    return Result::failure(describeInstance(spec) + " (plugin " + plugin.fileName() +
                           "): create failed: " + message);
  }
  return Result::success(std::move(raw));
}

}  // namespace skinpulse::plugin
