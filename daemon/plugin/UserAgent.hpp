#pragma once

// `user_agent`, a reserved instance key (plugin/ReservedKeys.hpp, docs/api.md §19): the
// User-Agent the host HTTP client sends for that instance, unless the plugin sets one on a
// request itself. Some markets answer a default client's User-Agent differently (or not
// at all), and an operator asked by a market to identify themselves can do so per
// instance. Unset: the client's default (skinpulse/<version>) as before.

#include "skinpulse/sdk/host.hpp"

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace skinpulse::plugin {

inline constexpr std::string_view kUserAgentKey = "user_agent";
inline constexpr std::size_t kMaxUserAgentBytes = 256;

/// Why `value` cannot be a User-Agent (nullopt when it can): empty, over 256 bytes, or a
/// byte that is not printable ASCII (CR and LF included: no header injection).
std::optional<std::string> userAgentProblem(std::string_view value);

/// An HttpClient that sends `user_agent` on every request without a User-Agent header of
/// its own, and otherwise leaves the request to `inner`, which must outlive it.
class UserAgentHttpClient final : public sdk::HttpClient {
 public:
  UserAgentHttpClient(sdk::HttpClient& inner, std::string user_agent);

  sdk::HttpResponse send(const sdk::HttpRequest& request) override;
  sdk::HttpResponse stream(const sdk::HttpRequest& request, sdk::BodySink& sink) override;

  const std::string& userAgent() const { return user_agent_; }

 private:
  sdk::HttpRequest withAgent(const sdk::HttpRequest& request) const;

  sdk::HttpClient& inner_;
  std::string user_agent_;
};

}  // namespace skinpulse::plugin
