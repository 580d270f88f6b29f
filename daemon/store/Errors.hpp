#pragma once

#include <Poco/Exception.h>

#include <exception>
#include <string>

namespace skinpulse::store {

/// The useful text of an exception: Poco's what() is only the exception's class name
/// ("Connection attempt failed"); displayText() carries the driver's message.
inline std::string describe(const std::exception& e) {
  if (const auto* poco = dynamic_cast<const Poco::Exception*>(&e)) return poco->displayText();
  return e.what();
}

}  // namespace skinpulse::store
