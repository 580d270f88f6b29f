#include "http/Request.hpp"

#include "http/HttpError.hpp"

#include <strings.h>

namespace skinpulse::http {

std::optional<std::string> Request::header(std::string_view name) const {
  for (const auto& [key, value] : headers) {
    if (key.size() == name.size() && strncasecmp(key.data(), name.data(), name.size()) == 0) {
      return value;
    }
  }
  return std::nullopt;
}

std::optional<std::string> Request::queryParam(const std::string& name) const {
  std::optional<std::string> found;
  for (const auto& [key, value] : query_params) {
    if (key != name) continue;
    if (found) throw HttpError::invalidParameter(name, "is given more than once");
    found = value;
  }
  return found;
}

void Response::setHeader(const std::string& name, const std::string& value) {
  for (auto& [key, existing] : headers) {
    if (strcasecmp(key.c_str(), name.c_str()) == 0) {
      existing = value;
      return;
    }
  }
  headers.emplace_back(name, value);
}

}  // namespace skinpulse::http
