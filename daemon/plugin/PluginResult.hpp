#pragma once

// Error handling of the plugin subsystem.
//
// Every operation that can fail because of a plugin or its configuration (loading,
// validating keys, creating an instance) returns a PluginResult<T>: either a value or a
// message written for the operator ("source instance 'steam' (plugin 'good'): missing
// required key 'url'"). Nothing thrown by plugin code escapes into the daemon. Callers that
// prefer exceptions call value(), which throws PluginError with that message when the
// result holds none: startup code can treat a required instance's failure as fatal with
// one `try`, and skip an optional one after logging error().

#include <optional>
#include <stdexcept>
#include <string>
#include <utility>

namespace skinpulse::plugin {

/// Thrown only by PluginResult::value() on a failed result.
class PluginError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

template <typename T>
class [[nodiscard]] PluginResult {
 public:
  static PluginResult success(T value) {
    PluginResult result;
    result.value_.emplace(std::move(value));
    return result;
  }
  static PluginResult failure(std::string message) {
    PluginResult result;
    result.error_ = std::move(message);
    return result;
  }

  bool ok() const noexcept { return value_.has_value(); }
  explicit operator bool() const noexcept { return ok(); }

  /// The message of a failed result; empty on success.
  const std::string& error() const noexcept { return error_; }

  /// The value; throws PluginError(error()) on a failed result.
  T& value() & {
    check();
    return *value_;
  }
  const T& value() const& {
    check();
    return *value_;
  }
  T&& value() && {
    check();
    return std::move(*value_);
  }

 private:
  PluginResult() = default;
  void check() const {
    if (!value_) throw PluginError(error_);
  }

  std::optional<T> value_;
  std::string error_;
};

}  // namespace skinpulse::plugin
