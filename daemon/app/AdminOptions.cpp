#include "app/AdminOptions.hpp"

#include "common/ValueParsers.hpp"

#include <Poco/Net/IPAddress.h>

namespace skinpulse::app {
namespace {

bool loopback(const std::string& host) {
  if (host == "localhost") return true;
  Poco::Net::IPAddress address;
  return Poco::Net::IPAddress::tryParse(host, address) && address.isLoopback();
}

}  // namespace

const common::OptionTable<AdminOptions>& adminOptionTable() {
  using T = common::OptionType;
  static const common::OptionTable<AdminOptions> table = {
      {{"admin.listen", T::kText, 0, 0, "ADMIN_LISTEN", "127.0.0.1:9108",
        "HOST:PORT of the admin listener (GET /metrics in the Prometheus text format, GET "
        "/readyz with every detail; docs/operations.md); empty disables it. Only a loopback "
        "address unless allow_remote is true."},
       &AdminOptions::listen},
      {{"admin.allow_remote", T::kBoolean, 0, 0, nullptr, "false",
        "Let the admin listener bind a non-loopback address. It has no authentication: "
        "firewall it to the Prometheus host."},
       &AdminOptions::allow_remote},
  };
  return table;
}

AdminOptions readAdminOptions(const common::OptionReader& read) {
  AdminOptions options;
  common::readOptions(adminOptionTable(), read, options);
  options.enabled = !options.listen.empty();
  if (!options.enabled) return options;
  const auto address = common::parseListenAddress(options.listen);
  if (!address) read.fail("admin.listen", "'" + options.listen + "' is not HOST:PORT");
  options.host = address->first;
  options.port = address->second;
  if (!loopback(options.host) && !options.allow_remote) {
    read.fail("admin.listen", "'" + options.listen +
                                  "' is not a loopback address; the admin listener has no "
                                  "authentication: set [admin] allow_remote = true to serve "
                                  "it beyond this host");
  }
  return options;
}

}  // namespace skinpulse::app
