#include "http/RequestMetrics.hpp"

#include "telemetry/DaemonMetrics.hpp"

#include <array>
#include <charconv>

namespace skinpulse::http {

std::string_view methodLabel(std::string_view method) {
  static constexpr std::array<std::string_view, 7> kMethods = {"GET",   "HEAD",   "POST",   "PUT",
                                                               "PATCH", "DELETE", "OPTIONS"};
  for (const auto known : kMethods) {
    if (method == known) return known;
  }
  return "other";
}

void recordRequest(std::string_view route, std::string_view method, int status, double seconds) {
  auto& metrics = telemetry::metrics();
  char digits[8];
  const auto end = std::to_chars(digits, digits + sizeof digits, status).ptr;
  const std::string_view label = methodLabel(method);
  metrics.http_requests.labels({route, label, std::string_view(digits, end - digits)}).inc();
  metrics.http_request_duration.labels({route, label}).observe(seconds);
}

}  // namespace skinpulse::http
