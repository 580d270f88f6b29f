#pragma once

// Registry: the capabilities modules offer each other, by type (an interface defined in
// the lower layer of the two, so neither module includes the other's folder). A module
// calls provide<T>(*this) while it is built and require<T>() in attach(), which app/ calls
// once every module of the table is built: the order modules are built in never decides
// whether a capability is found. app/ provides the plugin-side services the same way
// before it builds the modules. Not thread-safe: used only while the daemon is wired, on
// one thread.

#include <cstdlib>
#include <cxxabi.h>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <typeindex>
#include <typeinfo>

namespace skinpulse::module {

/// A capability asked for that nothing provides: a wiring fault, named so it can be fixed.
class MissingCapability : public std::logic_error {
 public:
  using std::logic_error::logic_error;
};

class Registry {
 public:
  /// Offers `capability` as T; it must outlive every module that requires it. Throws
  /// std::logic_error when T is already provided (two providers are a wiring fault too).
  template <typename T>
  void provide(T& capability) {
    const auto [it, added] = entries_.emplace(std::type_index(typeid(T)), &capability);
    (void)it;
    if (!added) throw std::logic_error(typeName<T>() + " is provided twice");
  }

  /// The capability provided as T. Throws MissingCapability naming T when none is.
  template <typename T>
  T& require() const {
    T* found = find<T>();
    if (found == nullptr) {
      throw MissingCapability("no module provides " + typeName<T>() +
                              " (app/ModuleTable.cpp lists the modules)");
    }
    return *found;
  }

  /// The capability provided as T, or null: for what a module can do without.
  template <typename T>
  T* find() const {
    const auto it = entries_.find(std::type_index(typeid(T)));
    return it == entries_.end() ? nullptr : static_cast<T*>(it->second);
  }

  /// T's readable name ("skinpulse::ingest::CycleHooks"), for messages.
  template <typename T>
  static std::string typeName() {
    const char* mangled = typeid(T).name();
    int status = 0;
    std::unique_ptr<char, void (*)(void*)> readable(
        abi::__cxa_demangle(mangled, nullptr, nullptr, &status), std::free);
    return status == 0 && readable ? std::string(readable.get()) : std::string(mangled);
  }

 private:
  std::map<std::type_index, void*> entries_;
};

}  // namespace skinpulse::module
