#include "plugin/UserAgent.hpp"

#include <algorithm>
#include <utility>

namespace skinpulse::plugin {
namespace {

bool isUserAgentHeader(std::string_view name) {
  constexpr std::string_view kName = "user-agent";
  if (name.size() != kName.size()) return false;
  for (std::size_t i = 0; i < name.size(); ++i) {
    const char c = (name[i] >= 'A' && name[i] <= 'Z') ? static_cast<char>(name[i] + 32) : name[i];
    if (c != kName[i]) return false;
  }
  return true;
}

}  // namespace

std::optional<std::string> userAgentProblem(std::string_view value) {
  if (value.empty()) return std::string("must not be empty (leave the key out for the default)");
  if (value.size() > kMaxUserAgentBytes) {
    return "is " + std::to_string(value.size()) + " bytes, at most " +
           std::to_string(kMaxUserAgentBytes) + " allowed";
  }
  const auto bad =
      std::find_if(value.begin(), value.end(), [](char c) { return c < 0x20 || c > 0x7e; });
  if (bad != value.end()) {
    return "must be printable ASCII (byte " + std::to_string(static_cast<unsigned char>(*bad)) +
           " at offset " + std::to_string(bad - value.begin()) + ")";
  }
  return std::nullopt;
}

UserAgentHttpClient::UserAgentHttpClient(sdk::HttpClient& inner, std::string user_agent)
    : inner_(inner), user_agent_(std::move(user_agent)) {}

sdk::HttpRequest UserAgentHttpClient::withAgent(const sdk::HttpRequest& request) const {
  sdk::HttpRequest copy = request;
  const bool own = std::any_of(copy.headers.begin(), copy.headers.end(),
                               [](const auto& header) { return isUserAgentHeader(header.first); });
  if (!own) copy.headers.emplace_back("User-Agent", user_agent_);
  return copy;
}

sdk::HttpResponse UserAgentHttpClient::send(const sdk::HttpRequest& request) {
  return inner_.send(withAgent(request));
}

sdk::HttpResponse UserAgentHttpClient::stream(const sdk::HttpRequest& request,
                                              sdk::BodySink& sink) {
  return inner_.stream(withAgent(request), sink);
}

}  // namespace skinpulse::plugin
