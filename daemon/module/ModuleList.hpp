#pragma once

// ModuleList: the daemon's modules in dependency order. Routes are registered and
// modules started in list order, and stopped in reverse, so a module never runs without
// the ones it was built on. Not thread-safe: app/Runtime drives it from one thread.

#include "module/Module.hpp"

#include <cstddef>
#include <memory>
#include <string_view>
#include <vector>

namespace skinpulse::module {

class ModuleList {
 public:
  ModuleList() = default;
  ModuleList(const ModuleList&) = delete;
  ModuleList& operator=(const ModuleList&) = delete;
  /// Stops what is still running, then destroys the modules in reverse order.
  ~ModuleList();

  /// Appends `module` and returns it, typed, for wiring.
  template <typename T>
  T& add(std::unique_ptr<T> module) {
    T& typed = *module;
    modules_.push_back(std::move(module));
    return typed;
  }

  /// Every module's attach(), in order (Module::attach).
  void attach(Services& services);
  /// The first module of type T, or null (the runtime asks for the server's port).
  template <typename T>
  T* find() const {
    for (const auto& module : modules_) {
      if (auto* typed = dynamic_cast<T*>(module.get())) return typed;
    }
    return nullptr;
  }

  void registerRoutes(http::Router& router);
  /// Starts every module in order. When one throws, the ones already started are
  /// stopped in reverse and the exception propagates.
  void start();
  /// Stops the started modules in reverse order; idempotent. False when one of them
  /// reported an unclean stop.
  bool stop();
  /// Every module's readiness keys, in list order; false when one is not ready.
  bool describeReadiness(common::JsonWriter& json) const;

  std::size_t size() const { return modules_.size(); }
  /// The modules' names, in list order (for the documentation check and logs).
  std::vector<std::string_view> names() const;

 private:
  std::vector<std::unique_ptr<Module>> modules_;
  std::size_t started_ = 0;  ///< modules_[0, started_) are running
};

}  // namespace skinpulse::module
