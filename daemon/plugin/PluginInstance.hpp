#pragma once

// PluginInstance<Interface>: the daemon's handle on one object a plugin created.
//
// Lifetime, which is the point of this class:
//  - the object is destroyed through the descriptor's destroy(), by PluginDeleter, whose
//    copy of the library handle keeps the .so mapped until after that call returns, even
//    when the PluginRegistry that loaded it is long gone;
//  - the object is destroyed before its HostImpl (the plugin holds a Host& to it), and
//    the library reference is dropped last. Members are declared in the reverse order.
// Not copyable; moving keeps the HostImpl's address (it lives on the heap).
// Unload order for the daemon: stop calling the instance, reset() or destroy the handle,
// then drop the registry.

#include "skinpulse/sdk/identity.hpp"
#include "skinpulse/sdk/metric.hpp"
#include "skinpulse/sdk/plugin.hpp"
#include "skinpulse/sdk/rates.hpp"
#include "skinpulse/sdk/source.hpp"

#include "plugin/HostImpl.hpp"

#include <boost/dll/shared_library.hpp>

#include <memory>
#include <string>
#include <utility>

namespace skinpulse::plugin {

template <typename Interface>
class PluginDeleter {
 public:
  PluginDeleter() = default;
  PluginDeleter(std::shared_ptr<boost::dll::shared_library> library, skinpulse_destroy_fn destroy)
      : library_(std::move(library)), destroy_(destroy) {}

  // The SDK passes instances across as static_cast<void*>(Interface*), both ways.
  void operator()(Interface* object) const noexcept {
    if (object != nullptr && destroy_ != nullptr) destroy_(static_cast<void*>(object));
  }

 private:
  std::shared_ptr<boost::dll::shared_library> library_;
  skinpulse_destroy_fn destroy_ = nullptr;
};

template <typename Interface>
class PluginInstance {
 public:
  using Object = std::unique_ptr<Interface, PluginDeleter<Interface>>;

  PluginInstance(std::string pluginName, std::string instanceName, std::unique_ptr<HostImpl> host,
                 Object object, skinpulse_fetch_quotes_fn quoteEntry = nullptr,
                 skinpulse_poll_fn reportEntry = nullptr) noexcept
      : pluginName_(std::move(pluginName)),
        instanceName_(std::move(instanceName)),
        fetchQuotes_(quoteEntry),
        poll_(reportEntry),
        host_(std::move(host)),
        object_(std::move(object)) {}

  PluginInstance(const PluginInstance&) = delete;
  PluginInstance& operator=(const PluginInstance&) = delete;
  PluginInstance(PluginInstance&&) noexcept = default;
  PluginInstance& operator=(PluginInstance&& other) noexcept {
    if (this != &other) {
      reset();  // the old object must go before its host and its library
      pluginName_ = std::move(other.pluginName_);
      instanceName_ = std::move(other.instanceName_);
      fetchQuotes_ = other.fetchQuotes_;
      poll_ = other.poll_;
      host_ = std::move(other.host_);
      object_ = std::move(other.object_);
    }
    return *this;
  }
  ~PluginInstance() = default;  // object_, then host_, then (inside object_) the library

  Interface* get() const noexcept { return object_.get(); }
  Interface* operator->() const noexcept { return object_.get(); }
  Interface& operator*() const noexcept { return *object_; }
  explicit operator bool() const noexcept { return object_ != nullptr; }

  const std::string& instanceName() const noexcept { return instanceName_; }
  /// The plugin's descriptor name, e.g. "steam_market".
  const std::string& pluginName() const noexcept { return pluginName_; }
  /// Sources of ABI 1.2: the descriptor's fetch_quotes entry, to be called with get()
  /// (see plugin/SourceFetch.hpp); nullptr for older sources and other kinds.
  skinpulse_fetch_quotes_fn fetchQuotes() const noexcept { return fetchQuotes_; }
  /// Sources of ABI 1.3: the descriptor's poll entry, to be called with get() (see
  /// plugin/SourceFetch.hpp); nullptr for older sources and other kinds.
  skinpulse_poll_fn pollEntry() const noexcept { return poll_; }
  /// The Host the object was created with; null after reset() or a move.
  HostImpl* host() const noexcept { return host_.get(); }

  /// Destroys the object, then its Host, then releases the library.
  void reset() noexcept {
    object_.reset();
    host_.reset();
    object_ = Object(nullptr, PluginDeleter<Interface>());  // drops the deleter's library ref
  }

 private:
  std::string pluginName_;
  std::string instanceName_;
  skinpulse_fetch_quotes_fn fetchQuotes_ = nullptr;
  skinpulse_poll_fn poll_ = nullptr;
  std::unique_ptr<HostImpl> host_;  // destroyed after object_
  Object object_;                   // declared last: destroyed first
};

using SourceInstance = PluginInstance<sdk::MarketSource>;
using IdentityInstance = PluginInstance<sdk::IdentityProvider>;
using MetricInstance = PluginInstance<sdk::Metric>;
using RatesInstance = PluginInstance<sdk::RateSource>;  ///< since SDK ABI 1.2

}  // namespace skinpulse::plugin
