#pragma once

// HostImpl: the sdk::Host of one plugin instance. It owns what is the instance's own
// (name, logger with its prefix, configuration) and refers to the daemon-wide services.
// The instance handle (PluginInstance) owns it and destroys it after the plugin object.

#include "skinpulse/sdk/host.hpp"

#include "plugin/HostServices.hpp"
#include "plugin/MapConfig.hpp"
#include "plugin/PluginKind.hpp"
#include "plugin/PluginLogger.hpp"
#include "plugin/UserAgent.hpp"

#include <cstddef>
#include <map>
#include <memory>
#include <string>

namespace skinpulse::plugin {

class HostImpl final : public sdk::Host {
 public:
  /// `config` holds the keys the plugin may see (reserved keys already removed);
  /// `user_agent` (checked: userAgentProblem()), when not empty, is sent by http() on every
  /// request that does not set its own.
  HostImpl(PluginKind kind, std::string instance, std::map<std::string, std::string> config,
           const HostServices& services, std::string user_agent = {});

  std::string instanceName() const override;
  sdk::Logger& logger() override;
  sdk::HttpClient& http() override;
  const sdk::Clock& clock() const override;
  const sdk::Config& config() const override;
  const sdk::Catalog& catalog() const override;
  std::string randomToken(std::size_t bytes) override;

  PluginKind kind() const { return kind_; }

 private:
  PluginKind kind_;
  std::string instanceName_;
  PluginLogger logger_;
  MapConfig config_;
  sdk::HttpClient& http_;
  std::unique_ptr<UserAgentHttpClient> agent_http_;  ///< wraps http_ when user_agent is set
  const sdk::Catalog& catalog_;
  const sdk::Clock& clock_;
};

}  // namespace skinpulse::plugin
