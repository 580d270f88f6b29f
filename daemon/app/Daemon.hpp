#pragma once

// skinpulsed as a Poco ServerApplication: command line, configuration, then the Runtime
// until SIGTERM/SIGINT.

#include <Poco/Util/ServerApplication.h>

#include <optional>
#include <string>

namespace skinpulse::app {

class Daemon final : public Poco::Util::ServerApplication {
 public:
  Daemon();

 protected:
  void defineOptions(Poco::Util::OptionSet& options) override;
  void handleOption(const std::string& name, const std::string& value) override;
  int main(const std::vector<std::string>& args) override;

 private:
  void printHelp() const;

  std::optional<std::string> config_file_;
  bool check_only_ = false;
  bool help_ = false;
  bool version_ = false;
  bool reference_ = false;
};

}  // namespace skinpulse::app
