#include "KeyValueForm.hpp"

#include <optional>
#include <string>

namespace skinpulse::plugins::openid2 {

bool assertsValid(std::string_view body) {
  std::optional<std::string_view> ns;
  std::optional<std::string_view> isValid;
  while (!body.empty()) {
    const auto newline = body.find('\n');
    std::string_view line = body.substr(0, newline);
    body = newline == std::string_view::npos ? std::string_view() : body.substr(newline + 1);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);  // tolerate CRLF
    if (line.empty()) continue;
    const auto colon = line.find(':');
    if (colon == std::string_view::npos) return false;
    const std::string_view key = line.substr(0, colon);
    const std::string_view value = line.substr(colon + 1);
    if (key == "ns") {
      if (ns) return false;
      ns = value;
    } else if (key == "is_valid") {
      if (isValid) return false;
      isValid = value;
    }
  }
  return ns && *ns == kOpenIdNamespace && isValid && *isValid == "true";
}

}  // namespace skinpulse::plugins::openid2
