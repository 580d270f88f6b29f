#pragma once

// Status: how plugin code reports failure to the host without throwing across the
// shared-object boundary (LevelDB style). A default-constructed Status is OK.

#include <string>
#include <utility>

namespace skinpulse::sdk {

class Status {
 public:
  /// What went wrong, coarse enough for the host to choose a reaction.
  enum class Code {
    kOk = 0,
    kInvalidConfig,  ///< configuration value missing or malformed
    kUnavailable,    ///< upstream unreachable, 5xx, timed out; retry later
    kRateLimited,    ///< upstream said 429; see retry_after_seconds where given
    kTooLarge,       ///< upstream body over the byte cap
    kMalformed,      ///< upstream answered something that cannot be parsed
    kRejected,       ///< the request was understood and refused (e.g. bad signature)
    kInternal,       ///< a bug or an unexpected exception in the plugin
  };

  Status() = default;
  Status(Code code, std::string message) : code_(code), message_(std::move(message)) {}

  static Status ok() { return Status(); }

  bool isOk() const { return code_ == Code::kOk; }
  Code code() const { return code_; }
  const std::string& message() const { return message_; }

 private:
  Code code_ = Code::kOk;
  std::string message_;
};

}  // namespace skinpulse::sdk
