#pragma once

// Why an inventory could not be read. Each kind maps to one problem code of
// docs/api.md §2; the message is for the log and never carries the request URL.

#include <stdexcept>
#include <string>

namespace skinpulse::portfolio {

class InventoryError : public std::runtime_error {
 public:
  enum class Kind {
    kPrivate,      ///< the platform answered 403: the inventory or profile is private
    kUnavailable,  ///< the platform answered 401: the community profile is not set up
    kTooLarge,     ///< a page over INVENTORY_MAX_BYTES, or more pages than the cap
    kUpstream,     ///< unreachable, timed out, 5xx, 429, any other status, or garbage
  };

  InventoryError(Kind kind, const std::string& message)
      : std::runtime_error(message), kind_(kind) {}

  Kind kind() const { return kind_; }

 private:
  Kind kind_;
};

}  // namespace skinpulse::portfolio
