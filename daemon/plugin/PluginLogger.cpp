#include "plugin/PluginLogger.hpp"

#include "common/Log.hpp"

#include <utility>

namespace skinpulse::plugin {
namespace {

spdlog::level::level_enum toSpdlog(sdk::LogLevel level) {
  switch (level) {
    case sdk::LogLevel::kDebug:
      return spdlog::level::debug;
    case sdk::LogLevel::kInfo:
      return spdlog::level::info;
    case sdk::LogLevel::kWarn:
      return spdlog::level::warn;
    case sdk::LogLevel::kError:
      return spdlog::level::err;
  }
  return spdlog::level::err;  // a level this daemon does not know: do not lose the line
}

}  // namespace

PluginLogger::PluginLogger(std::string label) : label_(std::move(label)) {}

void PluginLogger::log(sdk::LogLevel level, std::string_view message) {
  // Looked up on every call: log::configure() replaces the logger objects.
  skinpulse::log::plugin().log(toSpdlog(level), "{}: {}", label_, message);
}

}  // namespace skinpulse::plugin
