#include "plugin/HostImpl.hpp"

#include "common/RandomToken.hpp"

#include <utility>

namespace skinpulse::plugin {

HostImpl::HostImpl(PluginKind kind, std::string instance, std::map<std::string, std::string> config,
                   const HostServices& services, std::string user_agent)
    : kind_(kind),
      instanceName_(std::move(instance)),
      logger_(std::string(kindName(kind)) + "." + instanceName_),
      config_(std::move(config)),
      http_(services.http),
      catalog_(services.catalog),
      clock_(services.clock) {
  if (!user_agent.empty()) {
    agent_http_ = std::make_unique<UserAgentHttpClient>(http_, std::move(user_agent));
  }
}

std::string HostImpl::instanceName() const { return instanceName_; }

sdk::Logger& HostImpl::logger() { return logger_; }

sdk::HttpClient& HostImpl::http() {
  if (agent_http_) return *agent_http_;
  return http_;
}

const sdk::Clock& HostImpl::clock() const { return clock_; }

const sdk::Config& HostImpl::config() const { return config_; }

const sdk::Catalog& HostImpl::catalog() const { return catalog_; }

std::string HostImpl::randomToken(std::size_t bytes) {
  return skinpulse::common::randomToken(bytes);
}

}  // namespace skinpulse::plugin
