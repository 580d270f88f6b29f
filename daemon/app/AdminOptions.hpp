#pragma once

// AdminOptions: [admin] (docs/operations.md, "Admin listener"), bound in
// adminOptionTable(); the admin module (app/AdminModule.hpp) runs on them.

#include "common/OptionTable.hpp"

#include <cstdint>
#include <string>

namespace skinpulse::app {

/// [admin] (docs/operations.md, "Admin listener").
struct AdminOptions {
  std::string listen = "127.0.0.1:9108";  ///< HOST:PORT; empty disables the listener
  bool allow_remote = false;
  // From listen, by readAdminOptions():
  bool enabled = true;
  std::string host = "127.0.0.1";
  std::uint16_t port = 9108;
};

const common::OptionTable<AdminOptions>& adminOptionTable();

/// The table, then listen split and checked: a non-loopback address needs allow_remote,
/// because the listener shows internals and has no authentication. Throws ConfigError.
AdminOptions readAdminOptions(const common::OptionReader& read);

}  // namespace skinpulse::app
